package dev.visibility.platform.outbox;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import dev.visibility.platform.db.DatabaseWakeups;
import dev.visibility.platform.db.WakeableLoop;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.tracing.TraceContexts;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.transaction.ReactiveTransactionManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Publishes outbox rows to Kafka and marks them sent. One batch is one database transaction:
 * rows are locked with {@code FOR UPDATE SKIP LOCKED} (so replicas share the work), sent with an
 * idempotent producer ({@code acks=all}), and marked sent only after the broker acknowledged all
 * of them. A relay that stops between send and mark leaves the rows unsent; they are published
 * again on restart, which is why every record carries an eventId for consumers to de-duplicate.
 * <p>
 * The relay runs when an insert into {@code outbox} commits (a trigger notifies
 * {@link DatabaseWakeups}), and polls every {@code idle-poll-interval} besides; while
 * notifications do not arrive it polls every {@code poll-interval}.
 */
public class OutboxRelay implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(OutboxRelay.class);
    /** The first key of the relay's advisory locks (the second is the hash of a row's ordering key). */
    static final int ADVISORY_LOCK_CLASS = 0x6f7574;

    private final DatabaseClient db;
    private final TransactionalOperator tx;
    private final KafkaTemplate<String, byte[]> kafka;
    private final DatabaseWakeups wakeups;
    private final OutboxProperties properties;
    private final Scheduler scheduler;
    private volatile TraceContexts traces = new TraceContexts(ObservationRegistry.NOOP);
    private volatile Supplier<Mono<Void>> afterSend = Mono::empty;
    private volatile java.util.function.Consumer<String> deadLetters = topic -> { };
    private volatile boolean running;
    private volatile Disposable loop;
    private volatile Disposable backlogRefresh;
    /** The unsent rows and the creation time of the oldest (null: none), as last read; null before the first read. */
    private volatile Backlog backlog;
    private volatile boolean measureBacklog;
    /** When the gauges were last read (a scrape) and since when they are watched without a pause. */
    private volatile Watch watch;
    /** The clock of the backlog's readings and scrapes ({@link System#nanoTime()}; tests set their own). */
    private volatile java.util.function.LongSupplier nanos;

    public OutboxRelay(DatabaseClient db, TransactionalOperator tx, KafkaTemplate<String, byte[]> kafka,
            DatabaseWakeups wakeups, OutboxProperties properties) {
        this.db = db;
        this.wakeups = wakeups;
        this.tx = tx;
        this.kafka = kafka;
        this.properties = properties;
        // KafkaTemplate#send can block while it fetches metadata: keep that off shared threads.
        // one thread that may block: KafkaTemplate.send waits for the topic's metadata on its first
        // send (BlockHound refuses that on a non-blocking Reactor thread such as newSingle's)
        this.scheduler = Schedulers.newBoundedElastic(1, Integer.MAX_VALUE, "outbox-relay", 60, true);
        backlogClock(System::nanoTime);
    }

    /** A relay with its own idempotent producer that publishes the stored bytes unchanged. */
    public static OutboxRelay create(DatabaseClient db, ReactiveTransactionManager transactionManager,
            KafkaProperties kafkaProperties, DatabaseWakeups wakeups, OutboxProperties properties) {
        return create(db, transactionManager, kafkaProperties, wakeups, properties, ObservationRegistry.NOOP);
    }

    /** A relay whose sends are observed in {@code observations}. */
    public static OutboxRelay create(DatabaseClient db, ReactiveTransactionManager transactionManager,
            KafkaProperties kafkaProperties, DatabaseWakeups wakeups, OutboxProperties properties,
            ObservationRegistry observations) {
        Map<String, Object> config = new HashMap<>(kafkaProperties.buildProducerProperties());
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        config.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
        config.putIfAbsent(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        config.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 5);
        KafkaTemplate<String, byte[]> template = new KafkaTemplate<>(new DefaultKafkaProducerFactory<>(config));
        template.setObservationEnabled(true);
        template.setObservationRegistry(observations);
        OutboxRelay relay = new OutboxRelay(db, TransactionalOperator.create(transactionManager), template, wakeups, properties);
        relay.traces = new TraceContexts(observations);
        return relay;
    }

    /**
     * Publishes one batch; answers how many rows left the outbox (published, or parked as dead
     * letters). Fails when no row was acknowledged and some failed (the broker is unreachable), so
     * that the loop backs off.
     */
    public Mono<Integer> relayOnce() {
        return tx.transactional(fetchUnsent()
                .flatMap(rows -> rows.isEmpty() ? Mono.just(0)
                        : send(rows).flatMap(outcomes -> Mono.defer(afterSend).then(record(rows, outcomes)))));
    }

    /**
     * Counts parked rows in {@code registry}: {@code outbox.dead.letters} tagged with the topic
     * (each parked row is also logged at ERROR with its eventId, topic and reason).
     */
    public void countDeadLettersIn(MeterRegistry registry) {
        this.deadLetters = topic -> Counter.builder("outbox.dead.letters")
                .description("outbox rows parked in outbox_dead_letters because the broker refuses them for good")
                .tag("topic", topic)
                .register(registry)
                .increment();
    }

    /**
     * Keeps two gauges in {@code registry}, read from the table every {@link #BACKLOG_REFRESH} by one
     * statement over the unsent rows (the partial index {@code outbox_unsent}), not per scrape:
     * {@code outbox.backlog} (rows not yet sent) and {@code outbox.oldest.unsent.age} (seconds since
     * the oldest of them was written, 0 when there is none; it keeps growing between reads, so a
     * relay that stopped shows). Both describe the service's table: every replica reports the same.
     * The table is read only while the gauges are: within {@link #BACKLOG_WATCHED} of a scrape (an
     * idle suite that nobody scrapes runs no statement for them). The first scrape after such a pause
     * shows no value (NaN) rather than a reading from before it; while scrapes continue, the last
     * reading stays (a relay whose reads fail keeps showing a growing age).
     */
    public void measureBacklogIn(MeterRegistry registry) {
        this.measureBacklog = true;
        Gauge.builder("outbox.backlog", this, relay -> {
                    Backlog current = relay.watchedBacklog();
                    return current == null ? Double.NaN : current.rows();
                })
                .description("outbox rows not yet sent to Kafka (the service's table, read every 5 s while scraped)")
                .baseUnit("rows")
                .register(registry);
        Gauge.builder("outbox.oldest.unsent.age", this, OutboxRelay::oldestUnsentAgeSeconds)
                .description("seconds since the oldest outbox row not yet sent was written; 0 when none")
                .baseUnit("seconds")
                .register(registry);
    }

    /** How often the backlog gauges are read from the table while they are watched. */
    static final Duration BACKLOG_REFRESH = Duration.ofSeconds(5);
    /** How long after a scrape the gauges count as watched (Prometheus scrapes every 15 to 60 s). */
    static final Duration BACKLOG_WATCHED = Duration.ofMinutes(2);

    /** The last reading if it was taken while the gauges were watched, else null; marks the gauges read. */
    private Backlog watchedBacklog() {
        Watch read = watch.readAt(nanos.getAsLong());
        watch = read;
        Backlog current = backlog;
        return current == null || current.readAt() - read.since() < 0 ? null : current;
    }

    /** Whether a scrape read the gauges within {@link #BACKLOG_WATCHED}. */
    boolean backlogWatched() {
        return watch.watchedAt(nanos.getAsLong());
    }

    /** Test hook: the clock of the backlog's readings and of the gauges' reads. */
    void backlogClock(java.util.function.LongSupplier clock) {
        this.nanos = clock;
        this.watch = Watch.unwatched(clock.getAsLong());
    }

    /**
     * The gauges' reads on the backlog's clock: the last ({@code lastRead}) and the first after the
     * latest pause of more than {@link #BACKLOG_WATCHED} ({@code since}: readings older than it are
     * not shown).
     */
    private record Watch(long lastRead, long since) {

        /** Never read: the last read lies beyond {@link #BACKLOG_WATCHED} before {@code now}. */
        static Watch unwatched(long now) {
            long longAgo = now - BACKLOG_WATCHED.toNanos() - 1;
            return new Watch(longAgo, longAgo);
        }

        boolean watchedAt(long now) {
            return now - lastRead <= BACKLOG_WATCHED.toNanos();
        }

        /** This watch after a read at {@code now}: watched since now when the gauges were not watched. */
        Watch readAt(long now) {
            return new Watch(now, watchedAt(now) ? since : now);
        }
    }

    private double oldestUnsentAgeSeconds() {
        Backlog current = watchedBacklog();
        if (current == null) {
            return Double.NaN;
        }
        if (current.oldest() == null) {
            return 0;
        }
        return Math.max(0, Duration.between(current.oldest(), java.time.Instant.now()).toMillis() / 1000.0);
    }

    /** Reads the backlog once (one statement); the gauges show it until the next read. */
    public Mono<Void> refreshBacklog() {
        return db.sql("SELECT count(*) AS rows, min(created_at) AS oldest FROM outbox WHERE sent_at IS NULL")
                .map((row, meta) -> new Backlog(row.get("rows", Long.class),
                        row.get("oldest", java.time.OffsetDateTime.class), nanos.getAsLong()))
                .one()
                .doOnNext(read -> backlog = read)
                .then();
    }

    /** One reading of the table; {@code readAt} is its time on the backlog's clock. */
    private record Backlog(long rows, java.time.Instant oldest, long readAt) {
        Backlog(Long rows, java.time.OffsetDateTime oldest, long readAt) {
            this(rows == null ? 0 : rows, oldest == null ? null : oldest.toInstant(), readAt);
        }
    }

    /** Test hook: runs between the broker's acknowledgement and the mark, to simulate a crash there. */
    public void afterSend(Supplier<Mono<Void>> hook) {
        this.afterSend = hook;
    }

    /**
     * The oldest unsent rows whose ordering key no other relay holds. A row's key (topic and
     * message key; a row without a key is its own) is claimed with a transaction-scoped advisory
     * lock, tried in id order as rows are read: a key another replica's batch holds is skipped
     * whole, so one key's rows are in flight in one transaction at a time and are sent in id order
     * (platform/README.md, "Outbox").
     */
    /**
     * The oldest unsent rows this relay may send now. {@link #lockUnsent} claims keys as it reads;
     * a key it skipped early in its scan (another replica's batch held it) can be released by that
     * batch's commit before the scan reaches a later row of the same key, which it would then take
     * ahead of the skipped one. So, holding the keys' locks, it keeps a key's rows only if the
     * first of them is the key's oldest unsent row.
     */
    private Mono<List<Row>> fetchUnsent() {
        return lockUnsent().flatMap(rows -> {
            Map<String, Long> firstInBatch = new java.util.LinkedHashMap<>();
            for (Row row : rows) {
                if (row.key() != null) {
                    firstInBatch.putIfAbsent(row.topic() + "\u0000" + row.key(), row.id());
                }
            }
            if (firstInBatch.isEmpty()) {
                return Mono.just(rows);
            }
            String[] topics = firstInBatch.keySet().stream().map(k -> k.substring(0, k.indexOf('\u0000'))).toArray(String[]::new);
            String[] keys = firstInBatch.keySet().stream().map(k -> k.substring(k.indexOf('\u0000') + 1)).toArray(String[]::new);
            return db.sql("""
                    SELECT o.topic, o.message_key, min(o.id) AS oldest FROM outbox o
                    JOIN unnest(:topics::text[], :keys::text[]) AS k(topic, message_key)
                      ON o.topic = k.topic AND o.message_key = k.message_key
                    WHERE o.sent_at IS NULL GROUP BY o.topic, o.message_key""")
                    .bind("topics", topics)
                    .bind("keys", keys)
                    .map((row, meta) -> Map.entry(row.get("topic", String.class) + "\u0000" + row.get("message_key", String.class),
                            row.get("oldest", Long.class)))
                    .all()
                    .collectMap(Map.Entry::getKey, Map.Entry::getValue)
                    .map(oldest -> rows.stream()
                            .filter(row -> row.key() == null || firstInBatch.get(row.topic() + "\u0000" + row.key())
                                    .equals(oldest.get(row.topic() + "\u0000" + row.key())))
                            .toList());
        });
    }

    private Mono<List<Row>> lockUnsent() {
        return db.sql("""
                SELECT id, event_id, topic, message_key, event_type, payload, attempts, traceparent FROM outbox
                WHERE sent_at IS NULL
                  AND pg_try_advisory_xact_lock(:lockClass,
                        hashtext(current_schema() || '/' || topic || '/' || COALESCE(message_key, '#' || id)))
                ORDER BY id LIMIT :limit FOR UPDATE SKIP LOCKED""")
                .bind("lockClass", ADVISORY_LOCK_CLASS)
                .bind("limit", properties.batchSize())
                .map((row, meta) -> new Row(row.get("id", Long.class), row.get("event_id", UUID.class),
                        row.get("topic", String.class), row.get("message_key", String.class),
                        row.get("event_type", String.class), row.get("payload", String.class),
                        row.get("attempts", Integer.class), row.get("traceparent", String.class)))
                .all()
                .collectList();
    }

    /** Sends every row and answers each one's outcome, in the rows' order. */
    private Mono<List<Outcome>> send(List<Row> rows) {
        return Mono.fromCallable(() -> {
            List<CompletableFuture<?>> acks = new ArrayList<>(rows.size());
            Map<String, Throwable> unavailableTopics = new HashMap<>();
            for (Row row : rows) {
                Throwable topicFailure = unavailableTopics.get(row.topic());
                if (topicFailure != null) {
                    // its topic's metadata did not come for an earlier row: do not wait max.block.ms again
                    acks.add(CompletableFuture.failedFuture(topicFailure));
                    continue;
                }
                ProducerRecord<String, byte[]> record = new ProducerRecord<>(row.topic(), row.key(),
                        row.payload().getBytes(StandardCharsets.UTF_8));
                record.headers().add(Topics.EVENT_ID_HEADER, row.eventId().toString().getBytes(StandardCharsets.UTF_8));
                record.headers().add(Topics.EVENT_TYPE_HEADER, row.eventType().getBytes(StandardCharsets.UTF_8));
                CompletableFuture<?> ack = send(record, row.traceparent());
                if (ack.isCompletedExceptionally()) {
                    Throwable cause = ack.handle((ok, e) -> e).join();
                    if (kindOf(cause) == Kind.TOPIC_MISSING) {
                        unavailableTopics.put(row.topic(), cause);
                    }
                }
                acks.add(ack);
            }
            return acks;
        }).subscribeOn(scheduler)
                .flatMap(acks -> Mono.fromFuture(CompletableFuture.allOf(acks.stream()
                                .map(ack -> ack.handle((ok, e) -> null)).toArray(CompletableFuture[]::new)))
                        .timeout(properties.sendTimeout(), Mono.empty())
                        .then(Mono.fromSupplier(() -> acks.stream().map(OutboxRelay::outcomeOf).toList())));
    }

    /**
     * Sends one record inside an {@code outbox.relay} observation whose parent is the trace context
     * stored with the row: the template's own observation is its child and writes the record's
     * {@code traceparent} header, so the consumers continue the trace of the request (or record)
     * that wrote the row.
     */
    private CompletableFuture<?> send(ProducerRecord<String, byte[]> record, String traceparent) {
        io.micrometer.observation.Observation observation = traces.continuing("outbox.relay", traceparent)
                .lowCardinalityKeyValue("topic", record.topic())
                .start();
        try (io.micrometer.observation.Observation.Scope scope = observation.openScope()) {
            return kafka.send(record);
        } catch (RuntimeException e) {
            observation.error(e);
            return CompletableFuture.failedFuture(e);
        } finally {
            observation.stop();
        }
    }

    private static Outcome outcomeOf(CompletableFuture<?> ack) {
        if (!ack.isDone()) {
            return new Outcome(Kind.TRANSIENT, "no acknowledgement within the send time-out");
        }
        Throwable failure = ack.handle((ok, e) -> e).join();
        if (failure == null) {
            return Outcome.ACKNOWLEDGED;
        }
        return new Outcome(kindOf(failure), describe(failure));
    }

    /**
     * Records the batch's outcomes in its transaction: acknowledged rows are marked sent, rows the
     * broker refuses for good are parked, and rows that failed otherwise stay for the next round,
     * an attempt counted only if the broker acknowledged other rows of the batch (an outage of the
     * broker parks nothing).
     */
    private Mono<Integer> record(List<Row> rows, List<Outcome> outcomes) {
        List<Long> sent = new ArrayList<>();
        List<Row> poison = new ArrayList<>();
        List<String> poisonReasons = new ArrayList<>();
        List<Long> failedAttempts = new ArrayList<>();
        List<String> failedReasons = new ArrayList<>();
        String transientFailure = null;
        for (int i = 0; i < rows.size(); i++) {
            Row row = rows.get(i);
            Outcome outcome = outcomes.get(i);
            switch (outcome.kind()) {
                case ACKNOWLEDGED -> sent.add(row.id());
                case POISON -> {
                    poison.add(row);
                    poisonReasons.add(outcome.reason());
                }
                case TOPIC_MISSING, REFUSED -> {
                    failedAttempts.add(row.id());
                    failedReasons.add(outcome.reason());
                }
                case TRANSIENT -> transientFailure = outcome.reason();
            }
        }
        boolean brokerAnswers = !sent.isEmpty() || !poison.isEmpty();
        List<Row> exhausted = new ArrayList<>();
        List<String> exhaustedReasons = new ArrayList<>();
        List<Long> counted = new ArrayList<>();
        List<String> countedReasons = new ArrayList<>();
        if (brokerAnswers) {
            for (int i = 0; i < failedAttempts.size(); i++) {
                long id = failedAttempts.get(i);
                Row row = rows.stream().filter(r -> r.id() == id).findFirst().orElseThrow();
                if (row.attempts() + 1 >= properties.maxAttempts()) {
                    exhausted.add(row);
                    exhaustedReasons.add("failed " + (row.attempts() + 1) + " times: " + failedReasons.get(i));
                } else {
                    counted.add(id);
                    countedReasons.add(failedReasons.get(i));
                }
            }
        }
        poison.addAll(exhausted);
        poisonReasons.addAll(exhaustedReasons);
        int progressed = sent.size() + poison.size();
        Mono<Void> work = markSent(sent)
                .then(park(poison, poisonReasons))
                .then(countAttempts(counted, countedReasons));
        if (progressed == 0) {
            String reason = transientFailure != null ? transientFailure
                    : failedReasons.isEmpty() ? "no row acknowledged" : failedReasons.get(0);
            // nothing moved: roll back (no attempt is counted during an outage) and back off
            return Mono.error(new OutboxUnavailable(rows.size() + " rows not acknowledged: " + reason));
        }
        return work.thenReturn(progressed);
    }

    private Mono<Void> markSent(List<Long> ids) {
        if (ids.isEmpty()) {
            return Mono.empty();
        }
        return db.sql("UPDATE outbox SET sent_at = now() WHERE id = ANY(:ids)")
                .bind("ids", ids.toArray(Long[]::new))
                .then();
    }

    private Mono<Void> countAttempts(List<Long> ids, List<String> reasons) {
        if (ids.isEmpty()) {
            return Mono.empty();
        }
        return db.sql("""
                UPDATE outbox SET attempts = attempts + 1, last_error = failed.reason
                FROM unnest(:ids::bigint[], :reasons::text[]) AS failed(id, reason) WHERE outbox.id = failed.id""")
                .bind("ids", ids.toArray(Long[]::new))
                .bind("reasons", reasons.toArray(String[]::new))
                .then();
    }

    /** Moves rows into {@code outbox_dead_letters} with their reasons; logs and counts each. */
    private Mono<Void> park(List<Row> rows, List<String> reasons) {
        if (rows.isEmpty()) {
            return Mono.empty();
        }
        Long[] ids = rows.stream().map(Row::id).toArray(Long[]::new);
        return db.sql("""
                WITH parked AS (
                    DELETE FROM outbox USING unnest(:ids::bigint[], :reasons::text[]) AS bad(id, reason)
                    WHERE outbox.id = bad.id
                    RETURNING outbox.*, bad.reason)
                INSERT INTO outbox_dead_letters (id, event_id, topic, message_key, event_type, payload, created_at,
                    attempts, reason, traceparent)
                SELECT id, event_id, topic, message_key, event_type, payload, created_at, attempts + 1, reason, traceparent
                FROM parked
                ON CONFLICT DO NOTHING""")
                .bind("ids", ids)
                .bind("reasons", reasons.toArray(String[]::new))
                .then()
                .doOnSuccess(done -> {
                    for (int i = 0; i < rows.size(); i++) {
                        Row row = rows.get(i);
                        // the reason names the refusal, never a value of the payload
                        log.error("Outbox row parked in outbox_dead_letters: eventId={} topic={} type={} reason={}",
                                row.eventId(), row.topic(), row.eventType(), reasons.get(i));
                        deadLetters.accept(row.topic());
                    }
                });
    }

    /** How the broker's answer to one record is handled. */
    enum Kind {
        ACKNOWLEDGED,
        /** refused for good: parked at once */
        POISON,
        /** the topic never appeared in the metadata: counted, parked after max-attempts */
        TOPIC_MISSING,
        /** a refusal of no known kind that is not retriable: counted, parked after max-attempts */
        REFUSED,
        /** the broker's outage or a time-out: retried for as long as it lasts, never parked */
        TRANSIENT
    }

    record Outcome(Kind kind, String reason) {
        static final Outcome ACKNOWLEDGED = new Outcome(Kind.ACKNOWLEDGED, null);
    }

    static Kind kindOf(Throwable failure) {
        for (Throwable e = failure; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof RecordTooLargeException || e instanceof RecordBatchTooLargeException
                    || e instanceof InvalidTopicException || e instanceof TopicAuthorizationException
                    || e instanceof InvalidRecordException || e instanceof SerializationException) {
                return Kind.POISON;
            }
            if (e instanceof org.apache.kafka.common.errors.TimeoutException && e.getMessage() != null
                    && e.getMessage().contains("not present in metadata")) {
                return Kind.TOPIC_MISSING;
            }
            if (e instanceof RetriableException || e instanceof java.util.concurrent.TimeoutException
                    || e instanceof InterruptException) {
                return Kind.TRANSIENT;
            }
            if (e instanceof ApiException) {
                return e instanceof AuthenticationException || e instanceof ClusterAuthorizationException
                        ? Kind.TRANSIENT : Kind.REFUSED;
            }
        }
        return Kind.TRANSIENT;
    }

    /** The innermost Kafka exception's class and message (Kafka's messages name sizes and topics, not values). */
    private static String describe(Throwable failure) {
        Throwable chosen = failure;
        for (Throwable e = failure; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof org.apache.kafka.common.KafkaException) {
                chosen = e;
            }
        }
        String text = chosen.getClass().getSimpleName() + (chosen.getMessage() == null ? "" : ": " + chosen.getMessage());
        return text.length() > 500 ? text.substring(0, 500) : text;
    }

    /** No row of a batch was acknowledged: the broker is unreachable or slow; the batch is retried after a pause. */
    static final class OutboxUnavailable extends RuntimeException {
        OutboxUnavailable(String message) {
            super(message, null, false, false);
        }
    }

    @Override
    public void start() {
        running = true;
        WakeableLoop rounds = new WakeableLoop(wakeups.of("outbox"), wakeups::listening, properties.pollInterval(),
                properties.idlePollInterval(), Duration.ZERO, Duration.ofSeconds(1), scheduler);
        // a full batch runs again at once; a failure backs off for a second, so a broker outage does not spin
        // sent rows are deleted by PlatformRetention (suite.outbox.retention)
        loop = rounds.start(() -> relayOnce().map(moved -> moved >= properties.batchSize()),
                e -> log.warn("Outbox relay batch failed, will retry: {}", e.toString()));
        if (measureBacklog) {
            backlogRefresh = reactor.core.publisher.Flux.interval(Duration.ZERO, BACKLOG_REFRESH, scheduler)
                    .onBackpressureDrop()
                    .filter(tick -> backlogWatched())
                    .concatMap(tick -> refreshBacklog()
                            .timeout(BACKLOG_REFRESH)
                            .onErrorResume(e -> {
                                log.debug("Outbox backlog not read: {}", e.toString());
                                return Mono.empty();
                            }), 1)
                    .subscribe();
        }
    }

    @Override
    public void stop() {
        running = false;
        Disposable current = loop;
        if (current != null) {
            current.dispose();
        }
        Disposable refresh = backlogRefresh;
        if (refresh != null) {
            refresh.dispose();
        }
        kafka.getProducerFactory().reset();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private record Row(long id, UUID eventId, String topic, String key, String eventType, String payload, int attempts,
            String traceparent) {
    }
}
