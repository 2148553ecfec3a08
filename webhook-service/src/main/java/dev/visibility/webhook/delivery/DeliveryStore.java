package dev.visibility.webhook.delivery;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import dev.visibility.platform.db.ArrayLiterals;
import dev.visibility.webhook.delivery.DeliveryHttpClient.Outcome;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * What attempts read and write: deliveries with their webhook and body, and the attempt log.
 * Set-based: one statement for a whole batch of records, whatever its size; arrays go as one text
 * each ({@link ArrayLiterals}).
 */
@Repository
public class DeliveryStore {

    /** A delivery as an attempt needs it; the secret is still encrypted. */
    public record DeliveryToAttempt(UUID id, String state, int attemptCount, UUID redeliveryOf, UUID webhookId,
            String url, boolean webhookActive, byte[] secretCiphertext, String event, String body, String traceparent) {
    }

    /** One attempt to store, with the state its delivery moves to. */
    public record AttemptRow(UUID deliveryId, int attempt, Outcome outcome, DeliveryState state) {
    }

    private final DatabaseClient db;

    public DeliveryStore(DatabaseClient db) {
        this.db = db;
    }

    public Flux<DeliveryToAttempt> load(UUID[] deliveryIds) {
        return db.sql("""
                SELECT d.id, d.state, d.attempt_count, d.redelivery_of, s.id AS webhook_id, s.url, s.is_active,
                       s.secret_ciphertext, e.event, e.body, d.traceparent
                FROM deliveries d
                JOIN subscriptions s ON s.id = d.subscription_id
                JOIN events e ON e.event_id = d.event_id
                WHERE d.id = ANY (:ids::uuid[])""")
                .bind("ids", ArrayLiterals.uuids(deliveryIds))
                .map((row, meta) -> new DeliveryToAttempt(row.get("id", UUID.class), row.get("state", String.class),
                        row.get("attempt_count", Integer.class), row.get("redelivery_of", UUID.class),
                        row.get("webhook_id", UUID.class), row.get("url", String.class),
                        Boolean.TRUE.equals(row.get("is_active", Boolean.class)),
                        row.get("secret_ciphertext", byte[].class), row.get("event", String.class),
                        row.get("body", String.class), row.get("traceparent", String.class)))
                .all();
    }

    /**
     * Stores the attempts and their deliveries' new states in one statement. An attempt number
     * already stored (a record processed twice) is kept as it was; a success always wins, and a
     * delivery that is no longer pending keeps its state otherwise.
     */
    public Mono<Void> recordAttempts(List<AttemptRow> rows) {
        if (rows.isEmpty()) {
            return Mono.empty();
        }
        // each column's literal written as the rows are walked (ArrayLiterals.Column), no boxed arrays first
        int n = rows.size();
        ArrayLiterals.Column ids = new ArrayLiterals.Column(n, 37);
        ArrayLiterals.Column attempts = new ArrayLiterals.Column(n, 1);
        ArrayLiterals.Column ats = new ArrayLiterals.Column(n, 30);
        ArrayLiterals.Column statuses = new ArrayLiterals.Column(n, 3);
        ArrayLiterals.Column durations = new ArrayLiterals.Column(n, 4);
        ArrayLiterals.Column errors = new ArrayLiterals.Column(n, 12);
        ArrayLiterals.Column states = new ArrayLiterals.Column(n, 11);
        for (AttemptRow row : rows) {
            Outcome outcome = row.outcome();
            ids.uuid(row.deliveryId());
            attempts.number(row.attempt());
            ats.text(outcome.at().toString());
            if (outcome.httpStatus() == null) {
                statuses.none();
            } else {
                statuses.number(outcome.httpStatus());
            }
            durations.number(Math.min(outcome.durationMs(), Integer.MAX_VALUE));
            errors.text(outcome.errorClass());
            states.text(row.state().wireName());
        }
        return db.sql("""
                WITH input AS (
                    SELECT * FROM unnest(:ids::uuid[], :attempts::int[], :ats::timestamptz[], :statuses::int[],
                                         :durations::int[], :errors::text[], :states::text[])
                        AS i (id, attempt, at, http_status, duration_ms, error_class, state)
                ), stored AS (
                    INSERT INTO delivery_attempts (delivery_id, attempt, at, http_status, duration_ms, error_class)
                    SELECT id, attempt, at, http_status, duration_ms, error_class FROM input
                    ON CONFLICT (delivery_id, attempt) DO NOTHING
                )
                UPDATE deliveries d
                SET attempt_count = GREATEST(d.attempt_count, i.attempt),
                    last_attempt_at = GREATEST(d.last_attempt_at, i.at),
                    state = CASE WHEN i.state = 'succeeded' THEN 'succeeded'
                                 WHEN d.state = 'pending' THEN i.state
                                 ELSE d.state END
                FROM input i
                WHERE d.id = i.id""")
                .bind("ids", ids.literal())
                .bind("attempts", attempts.literal())
                .bind("ats", ats.literal())
                .bind("statuses", statuses.literal())
                .bind("durations", durations.literal())
                .bind("errors", errors.literal())
                .bind("states", states.literal())
                .then();
    }

    /**
     * The statement of {@link #finish}. "Not finished" rather than {@code state = 'pending'} (the same,
     * by the table's check): with the latter PostgreSQL may add the whole of
     * {@code deliveries_pending_by_activity} to the primary key's lookups, and that index is as large
     * as the service is behind (DeliveryLookupPlanTest).
     */
    static final String FINISH = """
            UPDATE deliveries SET state = :state
            WHERE id = ANY (:ids::uuid[]) AND state NOT IN ('succeeded', 'failed', 'cancelled')""";

    /** Moves pending deliveries to {@code state} (failed, cancelled); answers how many were pending. */
    public Mono<Long> finish(UUID[] deliveryIds, DeliveryState state) {
        if (deliveryIds.length == 0) {
            return Mono.just(0L);
        }
        return db.sql(FINISH)
                .bind("ids", ArrayLiterals.uuids(deliveryIds))
                .bind("state", state.wireName())
                .fetch().rowsUpdated();
    }

    /** Inserts a pending redelivery of {@code redeliveryOf} (same event, same webhook). */
    public Mono<Void> insertRedelivery(UUID deliveryId, UUID webhookId, UUID eventId, UUID redeliveryOf, Instant createdAt) {
        return insertRedelivery(deliveryId, webhookId, eventId, redeliveryOf, createdAt, null);
    }

    /** The same, its attempts continuing {@code traceparent} (the redeliver request's trace), when not null. */
    public Mono<Void> insertRedelivery(UUID deliveryId, UUID webhookId, UUID eventId, UUID redeliveryOf, Instant createdAt,
            String traceparent) {
        DatabaseClient.GenericExecuteSpec insert = db.sql("""
                INSERT INTO deliveries (id, subscription_id, event_id, redelivery_of, created_at, traceparent)
                VALUES (:id, :webhookId, :eventId, :redeliveryOf, :createdAt, :traceparent)""");
        insert = traceparent == null ? insert.bindNull("traceparent", String.class) : insert.bind("traceparent", traceparent);
        return insert
                .bind("id", deliveryId)
                .bind("webhookId", webhookId)
                .bind("eventId", eventId)
                .bind("redeliveryOf", redeliveryOf)
                .bind("createdAt", createdAt)
                .then();
    }
}
