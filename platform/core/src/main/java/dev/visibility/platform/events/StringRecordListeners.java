package dev.visibility.platform.events;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.springframework.boot.kafka.autoconfigure.ConcurrentKafkaListenerContainerFactoryConfigurer;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.support.ExponentialBackOffWithMaxRetries;

/**
 * Listener containers for the internal input topics (usage.requests, tracking.runs,
 * agentpicks.runs, recommendations): String values that the listener parses itself, so a
 * malformed record is one clear failure; offsets committed after the listener returned (the
 * platform turns auto-commit off); a failure retried in place with bounded exponential back-off,
 * then the record goes unchanged to {@code <topic>.DLT} and the partition moves on. The
 * exceptions named not retryable (a record that can never apply) go to the dead-letter topic at once.
 */
public final class StringRecordListeners {

    /** The dead-letter topic of a topic is its name with this suffix. */
    public static final String DEAD_LETTER_SUFFIX = ".DLT";

    private StringRecordListeners() {
    }

    /** In-place retries: {@code maxRetries} after the first failure, doubling from {@code initialMillis} up to {@code maxMillis}. */
    public record Retries(int maxRetries, long initialMillis, long maxMillis) {
    }

    public static String deadLetterTopic(String topic) {
        return topic + DEAD_LETTER_SUFFIX;
    }

    /**
     * A container factory of String records. {@code consumerOverrides} are applied over the
     * service's consumer properties (for example a smaller {@code max.poll.records}).
     */
    @SafeVarargs
    public static ConcurrentKafkaListenerContainerFactory<Object, Object> containerFactory(
            ConcurrentKafkaListenerContainerFactoryConfigurer configurer, KafkaProperties properties,
            StringProducer deadLetters, Retries retries, Map<String, Object> consumerOverrides,
            Class<? extends Exception>... notRetryable) {
        Map<String, Object> config = new HashMap<>(properties.buildConsumerProperties());
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.putAll(consumerOverrides);
        ConcurrentKafkaListenerContainerFactory<Object, Object> factory = new ConcurrentKafkaListenerContainerFactory<>();
        configurer.configure(factory, new DefaultKafkaConsumerFactory<>(config));

        ExponentialBackOffWithMaxRetries backOff = new ExponentialBackOffWithMaxRetries(retries.maxRetries());
        backOff.setInitialInterval(retries.initialMillis());
        backOff.setMultiplier(2.0);
        backOff.setMaxInterval(retries.maxMillis());
        DeadLetterPublishingRecoverer recoverer = new DeadLetterPublishingRecoverer(deadLetters.template(),
                (record, failure) -> new TopicPartition(deadLetterTopic(record.topic()), -1));
        DefaultErrorHandler errorHandler = new DefaultErrorHandler(recoverer, backOff);
        Arrays.stream(notRetryable).forEach(errorHandler::addNotRetryableExceptions);
        factory.setCommonErrorHandler(errorHandler);
        return factory;
    }

    /** The dead-letter topics of the given topics, for a {@code KafkaAdmin.NewTopics} bean. */
    public static KafkaAdmin.NewTopics deadLetterTopics(int partitions, short replicationFactor, String... topics) {
        List<NewTopic> declared = Arrays.stream(topics)
                .map(topic -> TopicBuilder.name(deadLetterTopic(topic)).partitions(partitions).replicas(replicationFactor).build())
                .toList();
        return new KafkaAdmin.NewTopics(declared.toArray(NewTopic[]::new));
    }
}
