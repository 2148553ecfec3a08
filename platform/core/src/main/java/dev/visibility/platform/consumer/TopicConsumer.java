package dev.visibility.platform.consumer;

import java.time.Duration;
import java.util.Objects;

/**
 * A service's declaration that it consumes a topic: declare one as a bean and the platform
 * ({@link TopicConsumerAutoConfiguration}) runs a listener container for it that reads the JSON
 * value into {@code type}, validates it (Bean Validation, then {@link ConsumedRecord#validate()}),
 * optionally claims its eventId, calls the handler and commits the offset after it succeeded.
 * Poison records go to {@code <topic>.DLT} at once; transient failures are retried until they pass
 * (see {@link Failures}).
 *
 * <pre>{@code
 * @Bean
 * TopicConsumer<UsageRecorded> usageRequests(UsageRepository usage) {
 *     return TopicConsumer.of(Topics.USAGE_REQUESTS, UsageRecorded.class, usage::add)
 *             .idempotent("auth-service.usage-requests");
 * }
 * }</pre>
 *
 * @param idempotencyName when not null, the handler runs in one transaction with the claim of the
 *                        record's eventId under this name in {@code processed_events}, and not at
 *                        all for an eventId already claimed
 * @param maxPollRecords  records per poll; null keeps the service's setting
 * @param timeout         how long one record's handling may take before it counts as a transient failure
 */
public record TopicConsumer<T extends ConsumedRecord>(String topic, Class<T> type, RecordHandler<T> handler,
        String idempotencyName, Integer maxPollRecords, Duration timeout) {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    public TopicConsumer {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(timeout, "timeout");
    }

    public static <T extends ConsumedRecord> TopicConsumer<T> of(String topic, Class<T> type, RecordHandler<T> handler) {
        return new TopicConsumer<>(topic, type, handler, null, null, DEFAULT_TIMEOUT);
    }

    /** Claims each record's eventId under {@code consumerName} in the handler's transaction; a claimed one is skipped. */
    public TopicConsumer<T> idempotent(String consumerName) {
        return new TopicConsumer<>(topic, type, handler, consumerName, maxPollRecords, timeout);
    }

    /** Fewer records per poll, for topics whose records are large or slow to apply. */
    public TopicConsumer<T> maxPollRecords(int records) {
        return new TopicConsumer<>(topic, type, handler, idempotencyName, records, timeout);
    }

    public TopicConsumer<T> timeout(Duration perRecord) {
        return new TopicConsumer<>(topic, type, handler, idempotencyName, maxPollRecords, perRecord);
    }

    public String deadLetterTopic() {
        return DeadLetters.topic(topic);
    }
}
