package dev.visibility.webhook.delivery;

import java.util.UUID;

import dev.visibility.platform.db.WakeableLoop;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.outbox.OutboxWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Queues again the deliveries left {@code pending} without anything on its way to them (issue 22):
 * a {@code webhook.deliveries} record dead-lettered, lost with a topic's retention, or anything a
 * crash left behind. Every {@code suite.webhook.pending-sweep.interval}, a pending delivery whose
 * last attempt (or creation, or previous requeue) is older than {@code stuck-after} gets a new
 * {@code webhook.deliveries} record through the outbox, in the transaction that marks it requeued.
 * The first-attempt listener then treats it as any record: a delivery never attempted is sent (same
 * {@code X-Service-Delivery}), one attempted before goes on to its next retry, one out of attempts
 * is failed, one no longer pending is skipped; the attempt numbers come from the database, so a
 * requeue never makes more than four attempts.
 */
@Component
@EnableConfigurationProperties(PendingSweepProperties.class)
class PendingSweeper implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(PendingSweeper.class);

    private final DatabaseClient db;
    private final OutboxWriter outbox;
    private final TransactionalOperator tx;
    private final PendingSweepProperties properties;
    private volatile Disposable loop;

    PendingSweeper(DatabaseClient db, OutboxWriter outbox, TransactionalOperator tx, PendingSweepProperties properties) {
        this.db = db;
        this.outbox = outbox;
        this.tx = tx;
        this.properties = properties;
    }

    /** One batch of the sweep; answers how many deliveries were queued again. */
    Mono<Long> sweepOnce() {
        Mono<Long> batch = db.sql("""
                WITH stuck AS (
                    SELECT id FROM deliveries
                    WHERE state = 'pending'
                      AND COALESCE(requeued_at, last_attempt_at, created_at) < now() - make_interval(secs => :seconds)
                    ORDER BY COALESCE(requeued_at, last_attempt_at, created_at)
                    LIMIT :batch FOR UPDATE SKIP LOCKED)
                UPDATE deliveries SET requeued_at = now() FROM stuck WHERE deliveries.id = stuck.id
                RETURNING deliveries.id, deliveries.subscription_id""")
                .bind("seconds", (double) properties.stuckAfter().toSeconds())
                .bind("batch", properties.batch())
                .map((row, meta) -> new DeliveryRequested(row.get("id", UUID.class), row.get("subscription_id", UUID.class)))
                .all()
                // a new eventId per requeue (the outbox's ids are unique); the record names the delivery
                .concatMap(requested -> outbox.append(Topics.WEBHOOK_DELIVERIES, requested.webhookId().toString(),
                        UUID.randomUUID(), DeliveryRequested.TYPE, requested).thenReturn(requested))
                .count();
        return tx.transactional(batch).doOnNext(requeued -> {
            if (requeued > 0) {
                log.warn("Queued {} deliveries left pending for more than {} again", requeued, properties.stuckAfter());
            }
        });
    }

    @Override
    public void start() {
        loop = WakeableLoop.periodic(properties.interval(), Schedulers.boundedElastic())
                .start(() -> sweepOnce().map(requeued -> requeued >= properties.batch()),
                        e -> log.warn("The pending-delivery sweep failed: {}", e.toString()));
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
