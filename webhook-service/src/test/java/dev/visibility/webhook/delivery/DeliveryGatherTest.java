package dev.visibility.webhook.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Properties;

import dev.visibility.platform.consumer.TopicConsumer;
import dev.visibility.platform.events.PublishedEvent;
import dev.visibility.platform.events.Topics;
import dev.visibility.webhook.config.WebhookProperties;
import dev.visibility.webhook.support.WebhookApiTest;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import reactor.core.publisher.Mono;

/**
 * The fan-out's and the first attempts' consumers let the broker gather 64 KiB for at most
 * {@code suite.webhook.delivery.gather} (50 ms), whatever the service's own fetch wait is; zero (the
 * local suite's setting) gathers nothing. The retry consumers are not gathered: each record waits for
 * its own due time there.
 */
class DeliveryGatherTest extends WebhookApiTest {

    @Autowired
    KafkaListenerEndpointRegistry registry;

    @Test
    void theFanOutAndFirstAttemptsGather64KibForAtMost50Milliseconds() {
        for (String topic : List.of(Topics.PUBLIC_EVENTS, DeliveryTopics.FIRST)) {
            Properties properties = registry.getListenerContainer(TopicConsumer.listenerId(topic))
                    .getContainerProperties().getKafkaConsumerProperties();
            assertThat(properties.getProperty(ConsumerConfig.FETCH_MIN_BYTES_CONFIG)).as(topic).isEqualTo("65536");
            assertThat(properties.getProperty(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG)).as(topic).isEqualTo("50");
        }
        assertThat(registry.getListenerContainer(FirstAttemptListener.ID).getContainerProperties()
                .getKafkaConsumerProperties().getProperty(ConsumerConfig.MAX_POLL_RECORDS_CONFIG)).isEqualTo("250");
    }

    @Test
    void zeroGathersNothingAndANegativeTimeIsRefused() {
        WebhookProperties off = properties(Duration.ZERO);
        TopicConsumer<PublishedEvent> consumer = TopicConsumer.batch(Topics.PUBLIC_EVENTS, PublishedEvent.class,
                batch -> Mono.empty());
        assertThat(DeliveryKafkaConfiguration.gathering(consumer, off).gather()).isNull();
        assertThat(DeliveryKafkaConfiguration.gathering(consumer, properties(Duration.ofMillis(200))).gather())
                .isEqualTo(new TopicConsumer.Gather(65536, Duration.ofMillis(200)));
        assertThatThrownBy(() -> properties(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("suite.webhook.delivery.gather");
    }

    private static WebhookProperties properties(Duration gather) {
        return new WebhookProperties(null, false, false, null, new WebhookProperties.Delivery(null, null, null, null,
                null, null, null, null, null, null, null, gather), null, null, null);
    }
}
