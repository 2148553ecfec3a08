package dev.visibility.traffic.hits;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;

import dev.visibility.platform.consumer.TopicConsumer;
import dev.visibility.platform.events.Topics;
import dev.visibility.traffic.config.TrafficProperties;
import dev.visibility.traffic.support.TrafficTest;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;

/**
 * The running traffic.hits consumers let the broker gather batches of about 1 MiB for at most
 * {@code suite.traffic.hits-gather} (200 ms), whatever the service's own fetch wait is, and read
 * {@code hits-poll-records} a poll.
 */
class TrafficHitsGatherTest extends TrafficTest {

    @Autowired
    KafkaListenerEndpointRegistry registry;

    @Test
    void theHitsConsumersGatherAMebibyteForAtMost200Milliseconds() {
        Properties properties = registry.getListenerContainer(TopicConsumer.listenerId(Topics.TRAFFIC_HITS))
                .getContainerProperties().getKafkaConsumerProperties();
        assertThat(properties.getProperty(ConsumerConfig.FETCH_MIN_BYTES_CONFIG))
                .isEqualTo(String.valueOf(TrafficProperties.HITS_GATHER_BYTES)).isEqualTo("1048576");
        assertThat(properties.getProperty(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG)).isEqualTo("200");
        assertThat(properties.getProperty(ConsumerConfig.MAX_POLL_RECORDS_CONFIG)).isEqualTo("5000");
    }
}
