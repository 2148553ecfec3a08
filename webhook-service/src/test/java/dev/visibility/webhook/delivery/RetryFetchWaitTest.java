package dev.visibility.webhook.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import dev.visibility.webhook.config.WebhookProperties;
import org.junit.jupiter.api.Test;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;

/** The retry consumers' fetch wait: the configured one, never longer than the shortest delay before a retry. */
class RetryFetchWaitTest {

    private static RetrySchedule backoff(Duration base, Duration max) {
        return new RetrySchedule(new WebhookProperties.Delivery(null, base, max, null, null, null, null, null, null,
                null, null, null));
    }

    private static KafkaProperties fetchMaxWait(Duration wait) {
        KafkaProperties properties = new KafkaProperties();
        properties.getConsumer().setFetchMaxWait(wait);
        return properties;
    }

    @Test
    void productionKeepsKafkasWaitBecauseEveryDelayIsLonger() {
        // defaults: back-off from 10 s (8 s at the least with 20 % jitter), nothing configured: Kafka's 500 ms
        assertThat(DeliveryKafkaConfiguration.retryFetchMaxWait(new KafkaProperties(), backoff(null, null))).isEqualTo(500);
        assertThat(DeliveryKafkaConfiguration.retryFetchMaxWait(fetchMaxWait(Duration.ofSeconds(5)), backoff(null, null)))
                .isEqualTo(5000);
        assertThat(DeliveryKafkaConfiguration.retryFetchMaxWait(fetchMaxWait(Duration.ofMillis(100)), backoff(null, null)))
                .isEqualTo(100);
    }

    @Test
    void aLongerConfiguredWaitIsCutToTheShortestDelay() {
        // the local suite: every consumer waits 5 s, retries after 1, 2 and 4 s (each less up to 20 %)
        assertThat(DeliveryKafkaConfiguration.retryFetchMaxWait(fetchMaxWait(Duration.ofSeconds(5)),
                backoff(Duration.ofSeconds(1), Duration.ofSeconds(4)))).isEqualTo(800);
        assertThat(DeliveryKafkaConfiguration.retryFetchMaxWait(new KafkaProperties(),
                backoff(Duration.ofMillis(200), Duration.ofSeconds(4)))).isEqualTo(160);
    }
}
