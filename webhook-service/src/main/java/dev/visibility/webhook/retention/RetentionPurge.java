package dev.visibility.webhook.retention;

import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

import dev.visibility.webhook.config.WebhookProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Retention of the delivery log ({@code suite.webhook.retention}, default 30 days): every
 * {@code suite.webhook.purge-interval} (default 1 h) this deletes
 * <ol>
 * <li>finished deliveries ({@code succeeded}, {@code failed}, {@code cancelled}) whose last
 * attempt (or creation, when none was made) is older than the retention, with their attempts,
 * except those a remaining redelivery refers to (they go once it has gone); a {@code pending}
 * delivery is never deleted, however old;</li>
 * <li>then the event bodies received before that time that no delivery references any more.</li>
 * </ol>
 * Set-based statements of at most {@value #BATCH} rows, each its own short transaction, repeated
 * until nothing is left; rows locked by a concurrent writer (or another instance's purge) are
 * skipped and taken next time. A failure is logged and the next run tries again.
 */
@Component
public class RetentionPurge implements SmartLifecycle {

    /** Rows per statement. */
    static final int BATCH = 2_000;

    private static final Logger log = LoggerFactory.getLogger(RetentionPurge.class);
    private static final Duration FIRST_RUN = Duration.ofMinutes(1);
    private static final Duration STATEMENT_LIMIT = Duration.ofMinutes(1);

    /** How many deliveries (each with its attempts) and event bodies one purge deleted. */
    public record Purged(long deliveries, long events) {
    }

    private final DatabaseClient db;
    private final Duration retention;
    private final Duration interval;
    private volatile Disposable schedule;

    public RetentionPurge(DatabaseClient db, WebhookProperties properties) {
        this.db = db;
        this.retention = properties.retention();
        this.interval = properties.purgeInterval();
    }

    /** Deletes what finished more than the retention ago. */
    public Mono<Purged> purgeExpired() {
        return purgeBefore(Instant.now().minus(retention));
    }

    /** Deletes finished deliveries that ended before {@code cutoff}, then the event bodies left without a delivery. */
    public Mono<Purged> purgeBefore(Instant cutoff) {
        return drain(() -> deleteDeliveries(cutoff), 0)
                .zipWhen(deliveries -> drain(() -> deleteEvents(cutoff), 0), Purged::new);
    }

    private Mono<Long> deleteDeliveries(Instant cutoff) {
        // attempts and deliveries in one statement (the foreign key is checked at its end); a delivery that a
        // remaining redelivery refers to is kept, and goes in a later round once that one has gone
        return db.sql("""
                WITH doomed AS (
                    SELECT d.id FROM deliveries d
                    WHERE d.state <> 'pending' AND COALESCE(d.last_attempt_at, d.created_at) < :cutoff
                      AND NOT EXISTS (SELECT 1 FROM deliveries r WHERE r.redelivery_of = d.id)
                    ORDER BY COALESCE(d.last_attempt_at, d.created_at)
                    LIMIT :batch
                    FOR UPDATE SKIP LOCKED
                ), attempts AS (
                    DELETE FROM delivery_attempts a USING doomed WHERE a.delivery_id = doomed.id
                )
                DELETE FROM deliveries d USING doomed WHERE d.id = doomed.id""")
                .bind("cutoff", cutoff)
                .bind("batch", BATCH)
                .fetch().rowsUpdated()
                .timeout(STATEMENT_LIMIT);
    }

    private Mono<Long> deleteEvents(Instant cutoff) {
        return db.sql("""
                WITH doomed AS (
                    SELECT e.event_id FROM events e
                    WHERE e.received_at < :cutoff
                      AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.event_id)
                    ORDER BY e.received_at
                    LIMIT :batch
                    FOR UPDATE SKIP LOCKED
                )
                DELETE FROM events e USING doomed WHERE e.event_id = doomed.event_id""")
                .bind("cutoff", cutoff)
                .bind("batch", BATCH)
                .fetch().rowsUpdated()
                .timeout(STATEMENT_LIMIT);
    }

    /** Repeats a batch statement until it deletes nothing; answers the total. */
    private static Mono<Long> drain(Supplier<Mono<Long>> batch, long total) {
        return batch.get().flatMap(deleted -> deleted == 0 ? Mono.just(total) : drain(batch, total + deleted));
    }

    @Override
    public void start() {
        schedule = Flux.interval(FIRST_RUN.compareTo(interval) < 0 ? FIRST_RUN : interval, interval, Schedulers.parallel())
                .onBackpressureDrop()
                .concatMap(tick -> purgeExpired()
                        .doOnNext(purged -> {
                            if (purged.deliveries() > 0 || purged.events() > 0) {
                                log.info("Retention ({}): purged {} finished deliveries with their attempts and {} event bodies",
                                        retention, purged.deliveries(), purged.events());
                            }
                        })
                        .onErrorResume(e -> {
                            log.warn("Retention purge failed; the next run tries again: {}", e.toString());
                            return Mono.empty();
                        }), 0)
                .subscribe();
    }

    @Override
    public void stop() {
        Disposable running = schedule;
        schedule = null;
        if (running != null) {
            running.dispose();
        }
    }

    @Override
    public boolean isRunning() {
        return schedule != null;
    }
}
