package dev.visibility.platform.outbox;

import java.time.Duration;
import java.util.List;

import dev.visibility.platform.db.WakeableLoop;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Deletes the platform's bookkeeping rows that grow with traffic once they are older than their
 * retention (issue 22): {@code processed_events} ({@code suite.retention.processed-events}), sent
 * {@code outbox} rows ({@code suite.outbox.retention}), {@code outbox_dead_letters}
 * ({@code suite.retention.dead-letters}) and {@code idempotency_keys} ({@code suite.retention.idempotency-keys}). Runs once at start and every
 * {@code suite.retention.interval}, in chunks of {@code suite.retention.chunk} rows per statement;
 * replicas may run it at the same time (a row deleted twice is deleted once).
 */
public class PlatformRetention implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(PlatformRetention.class);

    private final DatabaseClient db;
    private final RetentionProperties properties;
    private final Duration sentOutbox;
    private final List<ClaimTable> claimTables;
    private volatile Disposable loop;

    public PlatformRetention(DatabaseClient db, RetentionProperties properties, OutboxProperties outbox) {
        this(db, properties, outbox, List.of());
    }

    /** Also sweeps the service's {@code claimTables}, each after its own retention or as {@code processed_events}. */
    public PlatformRetention(DatabaseClient db, RetentionProperties properties, OutboxProperties outbox,
            List<ClaimTable> claimTables) {
        this.db = db;
        this.claimTables = List.copyOf(claimTables);
        this.properties = properties;
        this.sentOutbox = outbox.retention();
    }

    /** One sweep; answers how many rows it deleted. */
    public Mono<Long> sweep() {
        return Flux.concat(
                        deleteOlder("processed_events", "processed_at", properties.processedEvents(), ""),
                        Flux.fromIterable(claimTables).concatMap(table ->
                                deleteOlder(table.name(), "claimed_at", table.retentionOr(properties.processedEvents()), "")).reduce(0L, Long::sum),
                        deleteOlder("outbox", "sent_at", sentOutbox, " AND sent_at IS NOT NULL"),
                        deleteOlder("outbox_dead_letters", "parked_at", properties.deadLetters(), ""),
                        deleteOlder("idempotency_keys", "created_at", properties.idempotencyKeys(), ""))
                .reduce(0L, Long::sum)
                .doOnNext(deleted -> {
                    if (deleted > 0) {
                        log.info("Retention: deleted {} rows of processed_events{}, outbox, outbox_dead_letters and idempotency_keys",
                                deleted, claimTables.isEmpty() ? "" : " (and " + claimTables + ")");
                    }
                });
    }

    /** Deletes rows of {@code table} older than {@code age} by {@code column}, a chunk at a time. */
    private Mono<Long> deleteOlder(String table, String column, Duration age, String condition) {
        Mono<Long> chunk = db.sql("""
                DELETE FROM %1$s WHERE ctid = ANY(ARRAY(
                    SELECT ctid FROM %1$s WHERE %2$s < now() - make_interval(secs => :seconds)%3$s LIMIT :chunk))"""
                        .formatted(table, column, condition))
                .bind("seconds", (double) age.toSeconds())
                .bind("chunk", properties.chunk())
                .fetch()
                .rowsUpdated();
        return chunk.expand(deleted -> deleted >= properties.chunk() ? chunk : Mono.empty())
                .reduce(0L, Long::sum);
    }

    @Override
    public void start() {
        loop = WakeableLoop.periodic(properties.interval(), Schedulers.boundedElastic())
                .start(() -> sweep().thenReturn(false), e -> log.warn("The retention sweep failed: {}", e.toString()));
    }

    @Override
    public void stop() {
        Disposable current = loop;
        loop = null;
        if (current != null) {
            current.dispose();
        }
    }

    @Override
    public boolean isRunning() {
        return loop != null;
    }
}
