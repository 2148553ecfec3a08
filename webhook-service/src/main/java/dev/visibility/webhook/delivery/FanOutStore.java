package dev.visibility.webhook.delivery;

import java.time.Instant;
import java.util.UUID;

import dev.visibility.platform.db.ArrayLiterals;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;

/**
 * The set-based statement of the fan-out: one per batch of public events, whatever its size. Its
 * arrays go as one text each ({@link ArrayLiterals}).
 */
@Repository
class FanOutStore {

    /** A delivery of the batch's events that still has to be queued. */
    record Queued(UUID deliveryId, UUID webhookId) {
    }

    /** The fan-out statement of {@link #fanOut}. */
    static final String FAN_OUT = """
            WITH input AS (
                SELECT * FROM unnest(:eventIds::uuid[], :projectIds::uuid[], :events::text[], :bodies::text[],
                                     :traceparents::text[])
                    AS i (event_id, project_id, event, body, traceparent)
            ), matched AS (
                SELECT i.event_id, i.traceparent, s.id AS subscription_id,
                       row_number() OVER (ORDER BY i.ord, s.created_at, s.id) AS n
                FROM (SELECT input.*, row_number() OVER () AS ord FROM input) i
                JOIN subscriptions s ON s.project_id = i.project_id AND s.is_active AND i.event = ANY (s.events)
            ), stored_events AS (
                INSERT INTO events (event_id, project_id, event, body)
                SELECT i.event_id, i.project_id, i.event, i.body FROM input i
                WHERE EXISTS (SELECT 1 FROM matched m WHERE m.event_id = i.event_id)
                ON CONFLICT (event_id) DO NOTHING
            ), earlier AS MATERIALIZED (
                -- by event_id alone, so that this is read from deliveries_per_event: with the state in
                -- the condition PostgreSQL may read the whole of deliveries_pending_by_activity instead,
                -- which is largest when the service is behind (DeliveryLookupPlanTest)
                SELECT d.id, d.subscription_id, d.state, d.attempt_count FROM deliveries d
                WHERE d.event_id = ANY (:eventIds::uuid[]) AND d.redelivery_of IS NULL
            ), created AS (
                INSERT INTO deliveries (id, subscription_id, event_id, created_at, traceparent)
                SELECT gen_random_uuid(), m.subscription_id, m.event_id, :createdAt, m.traceparent FROM matched m
                ORDER BY m.n
                ON CONFLICT (event_id, subscription_id, (CASE WHEN redelivery_of IS NULL THEN NULL ELSE id END)) DO NOTHING
                RETURNING id, subscription_id
            )
            SELECT id, subscription_id FROM created
            UNION ALL
            SELECT e.id, e.subscription_id FROM earlier e WHERE e.state = 'pending' AND e.attempt_count = 0""";

    private final DatabaseClient db;

    FanOutStore(DatabaseClient db) {
        this.db = db;
    }

    /**
     * The whole fan-out of a batch in one statement (one round trip, atomic): matches the events
     * with the active subscriptions of their projects that list their names, stores the bodies of
     * the events that matched, inserts the deliveries that do not exist yet (one per event and
     * webhook, whatever the number of runs), and answers the deliveries of these events never
     * attempted: those it created, and (from the snapshot before it) those an earlier run created
     * whose records may not have reached the broker.
     */
    Flux<Queued> fanOut(UUID[] eventIds, UUID[] projectIds, String[] events, String[] bodies, Instant createdAt) {
        return fanOut(eventIds, projectIds, events, bodies, new String[eventIds.length], createdAt);
    }

    /** The same, each delivery keeping the trace context of its event ({@code traceparents}, null members allowed). */
    Flux<Queued> fanOut(UUID[] eventIds, UUID[] projectIds, String[] events, String[] bodies, String[] traceparents,
            Instant createdAt) {
        return db.sql(FAN_OUT)
                .bind("eventIds", ArrayLiterals.uuids(eventIds))
                .bind("projectIds", ArrayLiterals.uuids(projectIds))
                .bind("events", ArrayLiterals.texts(events))
                .bind("bodies", ArrayLiterals.texts(bodies))
                .bind("traceparents", ArrayLiterals.texts(traceparents))
                .bind("createdAt", createdAt)
                .map((row, meta) -> new Queued(row.get("id", UUID.class), row.get("subscription_id", UUID.class)))
                .all();
    }
}
