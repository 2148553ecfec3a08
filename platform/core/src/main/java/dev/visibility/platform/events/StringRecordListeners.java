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
import org.springframework.util.backoff.ExponentialBackOff;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import java.nio.charset.StandardCharsets;

/**
 * Listener containers for the internal input topics (usage.requests, tracking.runs,
 * agentpicks.runs, recommendations): String values that the listener parses itself, so a
 * malformed record is one clear failure; offsets committed after the listener returned (the
 * platform turns auto-commit off). A transient failure ({@link TransientFailures}: the database or
 * the broker unavailable) is retried in place for as long as it lasts, backing off up to 30 s, and
 * never dead-lettered. Any other failure is retried with bounded exponential back-off, then the
 * record goes unchanged to {@code <topic>.DLT} and the partition moves on. The exceptions named
 * not retryable (a record that can never apply) go to the dead-letter topic at once. A dead letter
 * carries its reason in the {@value #REASON_HEADER} header.
 */
public final class StringRecordListeners {

    /** The dead-letter topic of a topic is its name with this suffix. */
    public static final String DEAD_LETTER_SUFFIX = ".DLT";

    private StringRecordListeners() {
    }

    /** In-place retries: {@code maxRetries} after the first failure, doubling from {@code initialMillis} up to {@code maxMillis}. */
    public record Retries(int maxRetries, long initialMillis, long maxMillis) {
    }

    /** The header of a dead-lettered record that says why it could not be used (no record content, no secret). */
    public static final String REASON_HEADER = "x-dlt-reason";

    /**
     * Back-off of a transient failure: from the first in-place interval doubling up to 30 s (or the
     * configured maximum when larger), without a limit on attempts. The consumer thread waits
     * between attempts, well inside {@code max.poll.interval.ms}, and re-polls the same record.
     */
    static ExponentialBackOff transientBackOff(Retries retries) {
        ExponentialBackOff backOff = new ExponentialBackOff(Math.max(100, retries.initialMillis()), 2.0);
        backOff.setMaxInterval(Math.max(30_000, retries.maxMillis()));
        backOff.setMaxElapsedTime(Long.MAX_VALUE);
        return backOff;
    }

    /** The reason of a dead letter: the innermost failure's class and message, shortened. */
    static String reason(Throwable failure) {
        Throwable cause = failure;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        String text = cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
        return text.length() > 500 ? text.substring(0, 500) : text;
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
        recoverer.setHeadersFunction((record, failure) -> {
            Headers headers = new RecordHeaders();
            headers.add(REASON_HEADER, reason(failure).getBytes(StandardCharsets.UTF_8));
            return headers;
        });
        DefaultErrorHandler errorHandler = new DefaultErrorHandler(recoverer, backOff);
        // a failure of what the record depends on (the database, the broker) is retried for as long
        // as it lasts, never dead-lettered: the record is a fact that must not be lost
        errorHandler.setBackOffFunction((record, failure) -> TransientFailures.isTransient(failure)
                ? transientBackOff(retries) : null);
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
