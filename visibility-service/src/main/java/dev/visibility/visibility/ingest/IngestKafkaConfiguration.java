package dev.visibility.visibility.ingest;

import java.util.Map;

import dev.visibility.platform.events.StringProducer;
import dev.visibility.platform.events.StringRecordListeners;
import dev.visibility.platform.events.Topics;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.kafka.autoconfigure.ConcurrentKafkaListenerContainerFactoryConfigurer;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * The listener containers of {@code tracking.runs} and {@code agentpicks.runs} (the platform's
 * {@link StringRecordListeners}): offsets committed after the listener returned, retries in
 * place with bounded exponential back-off, then the record goes unchanged to {@code <topic>.DLT}
 * and the partition moves on. An {@link UnusableRecord} is not retried.
 * A failure of the database or the broker is retried for as long as it lasts and never
 * dead-lettered (the platform's {@code TransientFailures}); the bounded retries below are for other
 * failures.
 */
@Configuration(proxyBeanMethods = false)
public class IngestKafkaConfiguration {

    public static final String CONTAINER_FACTORY = "visibilityIngestContainerFactory";
    public static final String TRACKING_RUNS_DLT = StringRecordListeners.deadLetterTopic(Topics.TRACKING_RUNS);
    public static final String AGENTPICKS_RUNS_DLT = StringRecordListeners.deadLetterTopic(Topics.AGENTPICKS_RUNS);

    /** Dead letters, and the local demo's records, byte for byte. */
    @Bean
    StringProducer visibilityStringProducer(KafkaProperties properties) {
        return new StringProducer(properties);
    }

    @Bean(CONTAINER_FACTORY)
    ConcurrentKafkaListenerContainerFactory<Object, Object> visibilityIngestContainerFactory(
            ConcurrentKafkaListenerContainerFactoryConfigurer configurer, KafkaProperties properties,
            StringProducer producer) {
        // bounded retries for failures other than an outage (an outage is retried until it ends);
        // agent-picks records carry evidence batches, so fewer
        // records per poll keeps a poll well inside max.poll.interval
        return StringRecordListeners.containerFactory(configurer, properties, producer,
                new StringRecordListeners.Retries(10, 500, 30_000),
                Map.of(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 50), UnusableRecord.class);
    }

    @Bean
    @ConditionalOnProperty(prefix = "suite.kafka", name = "create-topics", havingValue = "true", matchIfMissing = true)
    KafkaAdmin.NewTopics visibilityDeadLetterTopics(@Value("${suite.kafka.partitions:3}") int partitions,
            @Value("${suite.kafka.replication-factor:1}") short replicationFactor) {
        return StringRecordListeners.deadLetterTopics(partitions, replicationFactor, Topics.TRACKING_RUNS,
                Topics.AGENTPICKS_RUNS);
    }
}
