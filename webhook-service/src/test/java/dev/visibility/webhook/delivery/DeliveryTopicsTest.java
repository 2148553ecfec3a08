package dev.visibility.webhook.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.visibility.platform.testing.SharedInfrastructure;
import dev.visibility.webhook.support.WebhookApiTest;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;

/**
 * DESIGN.md "Kafka topics": webhook.deliveries has the partitions the platform declares for it
 * (suite.kafka.topic-partitions.webhook.deliveries=6); its retry and dead-letter topics, which the
 * service creates, get as many, and each delivery topic has one consumer per partition.
 */
class DeliveryTopicsTest extends WebhookApiTest {

    private static final int DELIVERY_PARTITIONS = 6;

    @Autowired
    KafkaListenerEndpointRegistry registry;

    @Test
    void theRetryAndDeadLetterTopicsHaveAsManyPartitionsAsWebhookDeliveries() throws Exception {
        List<String> topics = List.of(DeliveryTopics.FIRST, DeliveryTopics.RETRY_FIRST, DeliveryTopics.FIRST + "-retry-2",
                DeliveryTopics.FIRST + "-retry-3", DeliveryTopics.DEAD_LETTERS);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                SharedInfrastructure.kafkaBootstrapServers()))) {
            Map<String, TopicDescription> described = admin.describeTopics(topics).allTopicNames().get(30, TimeUnit.SECONDS);
            for (String topic : topics) {
                assertThat(described.get(topic).partitions()).as(topic).hasSize(DELIVERY_PARTITIONS);
            }
        }
    }

    @Test
    void eachDeliveryTopicHasOneConsumerPerPartition() {
        for (String id : List.of(FirstAttemptListener.ID, RetryListener.ID)) {
            assertThat(registry.getListenerContainer(id)).as(id).isInstanceOfSatisfying(ConcurrentMessageListenerContainer.class,
                    container -> assertThat(container.getConcurrency()).isEqualTo(DELIVERY_PARTITIONS));
        }
        // the containers spring-kafka made for -retry-2, -retry-3 and the dead-letter topic
        assertThat(registry.getListenerContainers()).filteredOn(c -> c.getListenerId() != null
                        && c.getListenerId().startsWith(RetryListener.ID + "-"))
                .hasSize(3)
                .allSatisfy(c -> assertThat(((ConcurrentMessageListenerContainer<?, ?>) c).getConcurrency())
                        .isEqualTo(DELIVERY_PARTITIONS));
    }
}
