package dev.visibility.webhook.delivery;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** The set-based statements of the fan-out: one of each per batch of public events, whatever its size. */
@Repository
class FanOutStore {

    /** An active subscription of one of the batch's projects. */
    record ActiveWebhook(UUID id, UUID projectId, List<String> events) {
    }

    /** A delivery of the batch's events that still has to be queued. */
    record Queued(UUID deliveryId, UUID webhookId) {
    }

    private final DatabaseClient db;

    FanOutStore(DatabaseClient db) {
        this.db = db;
    }

    Flux<ActiveWebhook> activeWebhooks(UUID[] projectIds) {
        return db.sql("SELECT id, project_id, events FROM subscriptions WHERE is_active AND project_id = ANY (:projects)")
                .bind("projects", projectIds)
                .map((row, meta) -> new ActiveWebhook(row.get("id", UUID.class), row.get("project_id", UUID.class),
                        Arrays.asList(row.get("events", String[].class))))
                .all();
    }

    Mono<Void> insertEvents(UUID[] eventIds, UUID[] projectIds, String[] events, String[] bodies) {
        return db.sql("""
                INSERT INTO events (event_id, project_id, event, body)
                SELECT * FROM unnest(:eventIds::uuid[], :projectIds::uuid[], :events::text[], :bodies::text[])
                ON CONFLICT (event_id) DO NOTHING""")
                .bind("eventIds", eventIds)
                .bind("projectIds", projectIds)
                .bind("events", events)
                .bind("bodies", bodies)
                .then();
    }

    /** Inserts the deliveries that do not exist yet (one per event and webhook). */
    Mono<Void> insertDeliveries(UUID[] ids, UUID[] webhookIds, UUID[] eventIds, Instant createdAt) {
        return db.sql("""
                INSERT INTO deliveries (id, subscription_id, event_id, created_at)
                SELECT d.id, d.webhook_id, d.event_id, :createdAt
                FROM unnest(:ids::uuid[], :webhookIds::uuid[], :eventIds::uuid[]) AS d (id, webhook_id, event_id)
                ON CONFLICT (subscription_id, event_id) WHERE redelivery_of IS NULL DO NOTHING""")
                .bind("ids", ids)
                .bind("webhookIds", webhookIds)
                .bind("eventIds", eventIds)
                .bind("createdAt", createdAt)
                .then();
    }

    /**
     * The deliveries of these events that were never attempted: all of them the first time, and
     * after a crash between this transaction and the broker's acknowledgement, those whose
     * records may not have reached the broker.
     */
    Flux<Queued> notYetAttempted(UUID[] eventIds) {
        return db.sql("""
                SELECT id, subscription_id FROM deliveries
                WHERE event_id = ANY (:eventIds) AND redelivery_of IS NULL AND state = 'pending' AND attempt_count = 0
                ORDER BY created_at, id""")
                .bind("eventIds", eventIds)
                .map((row, meta) -> new Queued(row.get("id", UUID.class), row.get("subscription_id", UUID.class)))
                .all();
    }
}
