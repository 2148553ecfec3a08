package dev.visibility.visibility.ingest;

import java.util.HashMap;
import java.util.Map;

import dev.visibility.platform.events.Topics;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.kafka.autoconfigure.ConcurrentKafkaListenerContainerFactoryConfigurer;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.support.ExponentialBackOffWithMaxRetries;

/**
 * The listener containers of {@code tracking.runs} and {@code agentpicks.runs}: String values
 * (parsed by the listeners, so a malformed record is one clear failure), offsets committed after
 * the listener returned (the platform turns auto-commit off), retries with bounded exponential
 * back-off, then the record goes unchanged to {@code <topic>.DLT} and the partition moves on.
 * An {@link UnusableRecord} is not retried.
 */
@Configuration(proxyBeanMethods = false)
public class IngestKafkaConfiguration {

    public static final String CONTAINER_FACTORY = "visibilityIngestContainerFactory";
    public static final String TRACKING_RUNS_DLT = Topics.TRACKING_RUNS + ".DLT";
    public static final String AGENTPICKS_RUNS_DLT = Topics.AGENTPICKS_RUNS + ".DLT";

    @Bean
    StringProducer visibilityStringProducer(KafkaProperties properties) {
        return new StringProducer(properties);
    }

    @Bean(CONTAINER_FACTORY)
    ConcurrentKafkaListenerContainerFactory<Object, Object> visibilityIngestContainerFactory(
            ConcurrentKafkaListenerContainerFactoryConfigurer configurer, KafkaProperties properties,
            StringProducer strings) {
        Map<String, Object> config = new HashMap<>(properties.buildConsumerProperties());
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        // agent-picks records carry evidence batches; fewer records per poll keeps a poll well inside max.poll.interval
        config.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 50);
        ConcurrentKafkaListenerContainerFactory<Object, Object> factory = new ConcurrentKafkaListenerContainerFactory<>();
        configurer.configure(factory, new DefaultKafkaConsumerFactory<>(config));

        // about 2.5 minutes in all, within max.poll.interval.ms: a database restart is ridden out, not dead-lettered
        ExponentialBackOffWithMaxRetries backOff = new ExponentialBackOffWithMaxRetries(10);
        backOff.setInitialInterval(500);
        backOff.setMultiplier(2.0);
        backOff.setMaxInterval(30_000);
        DeadLetterPublishingRecoverer recoverer = new DeadLetterPublishingRecoverer(strings.template(),
                (record, failure) -> new TopicPartition(record.topic() + ".DLT", -1));
        DefaultErrorHandler errorHandler = new DefaultErrorHandler(recoverer, backOff);
        errorHandler.addNotRetryableExceptions(UnusableRecord.class);
        factory.setCommonErrorHandler(errorHandler);
        return factory;
    }

    @Bean
    @ConditionalOnProperty(prefix = "suite.kafka", name = "create-topics", havingValue = "true", matchIfMissing = true)
    KafkaAdmin.NewTopics visibilityDeadLetterTopics(@Value("${suite.kafka.partitions:3}") int partitions,
            @Value("${suite.kafka.replication-factor:1}") short replicationFactor) {
        return new KafkaAdmin.NewTopics(
                TopicBuilder.name(TRACKING_RUNS_DLT).partitions(partitions).replicas(replicationFactor).build(),
                TopicBuilder.name(AGENTPICKS_RUNS_DLT).partitions(partitions).replicas(replicationFactor).build());
    }
}
