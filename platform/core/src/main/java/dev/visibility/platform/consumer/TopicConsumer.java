package dev.visibility.platform.consumer;

import java.time.Duration;
import java.util.Objects;

import dev.visibility.platform.outbox.ClaimTable;
import dev.visibility.platform.outbox.Claims;

/**
 * A service's declaration that it consumes a topic: declare one as a bean and the platform
 * ({@link TopicConsumerAutoConfiguration}) runs a listener container for it that reads the JSON
 * value, validates it against the topic's JSON Schema ({@link TopicSchemas}), reads it into
 * {@code type} and validates that (Bean Validation, then {@link ConsumedRecord#validate()}),
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
 * @param claims          when not null, the handler runs in one transaction with the claims of the
 *                        records' eventIds there, and not at all for an eventId already claimed
 *                        ({@code processed_events} under a name, or, batch consumers only, a claim
 *                        table of the service's own)
 * @param maxPollRecords  records per poll; null keeps the service's setting
 * @param concurrency     consumers per service instance; null keeps the service's setting
 * @param gather          when not null, how long the broker may hold a fetch to gather a bigger batch
 * @param timeout         how long one record's (or one batch's) handling may take before it counts as a transient failure
 * @param quickReader     when not null, tried before the full reading for each record ({@link QuickReader})
 */
public record TopicConsumer<T extends ConsumedRecord>(String topic, Class<T> type, RecordHandler<T> handler,
        BatchHandler<T> batchHandler, Claims claims, Integer maxPollRecords, Integer concurrency, Duration timeout,
        Gather gather, QuickReader<T> quickReader) {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    public TopicConsumer {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(type, "type");
        if ((handler == null) == (batchHandler == null)) {
            throw new IllegalArgumentException("A consumer of " + topic + " has either a record handler or a batch handler");
        }
        Objects.requireNonNull(timeout, "timeout");
        if (claims != null && claims.ownTable() && batchHandler == null) {
            throw new IllegalArgumentException("A consumer of " + topic + " claims in a claim table only as a batch consumer");
        }
    }

    /** Whether the handler runs in one transaction with the claims of the records' eventIds. */
    public boolean isIdempotent() {
        return claims != null;
    }

    /** One record at a time: the handler sees each valid record once its predecessors succeeded. */
    public static <T extends ConsumedRecord> TopicConsumer<T> of(String topic, Class<T> type, RecordHandler<T> handler) {
        return new TopicConsumer<>(topic, type, handler, null, null, null, null, DEFAULT_TIMEOUT, null, null);
    }

    /**
     * A poll's records at a time, for high-volume topics: the handler gets the poll's valid records
     * as one list (apply them with one statement); poison records among them go to the dead-letter
     * topic after the handler succeeded; a failure of the handler retries the whole batch (transient:
     * as long as it lasts, with the partitions paused; unexpected: a few times, then the batch's
     * records are dead-lettered).
     */
    public static <T extends ConsumedRecord> TopicConsumer<T> batch(String topic, Class<T> type, BatchHandler<T> handler) {
        return new TopicConsumer<>(topic, type, null, handler, null, null, null, DEFAULT_TIMEOUT, null, null);
    }

    /**
     * {@link #batch}, whose handler also gets each record's trace context (its {@code traceparent}
     * header), for handlers that store work to be done later per record.
     */
    public static <T extends ConsumedRecord> TopicConsumer<T> tracedBatch(String topic, Class<T> type,
            BatchHandler<Traced<T>> handler) {
        return batch(topic, type, records -> reactor.core.publisher.Mono.deferContextual(
                context -> handler.handle(Traced.of(records, context))));
    }

    public boolean isBatch() {
        return batchHandler != null;
    }

    /** Claims each record's eventId under {@code consumerName} in the handler's transaction; a claimed one is skipped. */
    public TopicConsumer<T> idempotent(String consumerName) {
        return claimingIn(Claims.processedEvents(consumerName));
    }

    /**
     * {@link #idempotent} with the claims in a table of the service's own ({@link ClaimTable}; batch
     * consumers of topics of very many small records, where {@code processed_events}' rows would cost
     * a good part of what a record does).
     */
    public TopicConsumer<T> idempotentIn(ClaimTable table) {
        return claimingIn(Claims.in(Objects.requireNonNull(table, "table")));
    }

    private TopicConsumer<T> claimingIn(Claims where) {
        if (claims != null) {
            throw new IllegalArgumentException("A consumer of " + topic + " already claims in " + claims.table());
        }
        return with(copy -> copy.claims = where);
    }

    /** Fewer records per poll, for topics whose records are large or slow to apply. */
    public TopicConsumer<T> maxPollRecords(int records) {
        return with(copy -> copy.maxPollRecords = records);
    }

    /** Consumers of the topic per service instance (at most one per partition is busy); null keeps the service's setting. */
    public TopicConsumer<T> concurrency(int consumers) {
        return with(copy -> copy.concurrency = consumers);
    }

    public TopicConsumer<T> timeout(Duration perRecord) {
        return with(copy -> copy.timeout = perRecord);
    }

    /**
     * Batches of at least {@code minBytes} (of the partition's log, compressed as the producers sent it)
     * unless {@code maxWait} passed first, for a high-volume batch consumer whose cost is per batch as
     * much as per record: without it a consumer that keeps up gets whatever arrived since its last
     * fetch (a few hundred records), and falls behind before its batches grow. A record waits at most
     * {@code maxWait} longer; an idle consumer's fetch is answered after {@code maxWait} (rather than
     * the service's {@code fetch.max.wait.ms}). A zero {@code maxWait} turns gathering off: the
     * service's fetch settings apply (a record is fetched when it arrives; an idle consumer fetches every
     * {@code fetch.max.wait.ms}), which is what a service's "no gathering" setting means.
     */
    public TopicConsumer<T> gather(int minBytes, Duration maxWait) {
        Gather settings = maxWait != null && maxWait.isZero() ? null : new Gather(minBytes, maxWait);
        return with(copy -> copy.gather = settings);
    }

    /**
     * Reads the records that {@code reader} knows in one pass, and only the others through the JSON tree,
     * the topic's schema and the mapping ({@link QuickReader}; for the type's records in their common
     * form the two readings give the same record).
     */
    public TopicConsumer<T> quickReader(QuickReader<T> reader) {
        return with(copy -> copy.quickReader = Objects.requireNonNull(reader, "reader"));
    }

    /** This declaration with the settings {@code change} sets; the others as they are. */
    private TopicConsumer<T> with(java.util.function.Consumer<Copy<T>> change) {
        Copy<T> copy = new Copy<>(this);
        change.accept(copy);
        return new TopicConsumer<>(topic, type, handler, batchHandler, copy.claims, copy.maxPollRecords,
                copy.concurrency, copy.timeout, copy.gather, copy.quickReader);
    }

    /** The settings a {@code with...} method may change, copied from a declaration (one place to add the next). */
    private static final class Copy<T extends ConsumedRecord> {
        Claims claims;
        Integer maxPollRecords;
        Integer concurrency;
        Duration timeout;
        Gather gather;
        QuickReader<T> quickReader;

        Copy(TopicConsumer<T> from) {
            claims = from.claims;
            maxPollRecords = from.maxPollRecords;
            concurrency = from.concurrency;
            timeout = from.timeout;
            gather = from.gather;
            quickReader = from.quickReader;
        }
    }

    /** See {@link #gather}. */
    public record Gather(int minBytes, Duration maxWait) {

        public Gather {
            if (minBytes < 1 || maxWait == null || maxWait.isNegative() || maxWait.isZero()) {
                throw new IllegalArgumentException("A fetch gathers at least one byte for a positive time");
            }
        }
    }

    /** The id of the listener container that consumes {@code topic} (Spring Kafka's listener registry). */
    public static String listenerId(String topic) {
        return "topic-consumer." + topic;
    }

    public String deadLetterTopic() {
        return DeadLetters.topic(topic);
    }
}
