package dev.visibility.webhook.subscriptions;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** The {@code subscriptions} table. Every query is scoped by project: another project's webhook is not found. */
@Repository
public class SubscriptionRepository {

    /** A stored subscription without its secret. */
    public record Subscription(UUID id, UUID projectId, String url, List<String> events, boolean active, Instant createdAt) {
    }

    private final DatabaseClient db;

    public SubscriptionRepository(DatabaseClient db) {
        this.db = db;
    }

    /** Serializes creations within one project, so that the limit of active webhooks holds (transaction-scoped). */
    public Mono<Void> lockProject(UUID projectId) {
        return db.sql("SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))")
                .bind("key", "webhook-subscriptions:" + projectId)
                .then();
    }

    public Mono<Long> countActive(UUID projectId) {
        return db.sql("SELECT count(*) AS n FROM subscriptions WHERE project_id = :projectId AND is_active")
                .bind("projectId", projectId)
                .map((row, meta) -> row.get("n", Long.class))
                .one();
    }

    public Mono<Void> insert(Subscription subscription, String accountId, byte[] secretCiphertext) {
        DatabaseClient.GenericExecuteSpec spec = db.sql("""
                INSERT INTO subscriptions (id, project_id, account_id, url, events, is_active, secret_ciphertext, created_at)
                VALUES (:id, :projectId, :accountId, :url, :events, TRUE, :secret, :createdAt)""")
                .bind("id", subscription.id())
                .bind("projectId", subscription.projectId())
                .bind("url", subscription.url())
                .bind("events", subscription.events().toArray(String[]::new))
                .bind("secret", secretCiphertext)
                .bind("createdAt", subscription.createdAt());
        spec = accountId == null ? spec.bindNull("accountId", String.class) : spec.bind("accountId", accountId);
        return spec.then();
    }

    /** Active subscriptions of the project, oldest first. */
    public Flux<Subscription> listActive(UUID projectId) {
        return db.sql("""
                SELECT id, project_id, url, events, is_active, created_at FROM subscriptions
                WHERE project_id = :projectId AND is_active ORDER BY created_at, id""")
                .bind("projectId", projectId)
                .map((row, meta) -> new Subscription(row.get("id", UUID.class), row.get("project_id", UUID.class),
                        row.get("url", String.class), Arrays.asList(row.get("events", String[].class)),
                        Boolean.TRUE.equals(row.get("is_active", Boolean.class)), row.get("created_at", Instant.class)))
                .all();
    }

    /** Ids of the project's active subscriptions that list {@code event}. */
    public Flux<UUID> activeFor(UUID projectId, String event) {
        return db.sql("""
                SELECT id FROM subscriptions
                WHERE project_id = :projectId AND is_active AND :event = ANY (events) ORDER BY created_at, id""")
                .bind("projectId", projectId)
                .bind("event", event)
                .map((row, meta) -> row.get("id", UUID.class))
                .all();
    }

    /** Whether the webhook exists in the project; {@code activeOnly} also asks that it is active. */
    public Mono<Boolean> exists(UUID projectId, UUID webhookId, boolean activeOnly) {
        return db.sql("SELECT is_active FROM subscriptions WHERE id = :id AND project_id = :projectId")
                .bind("id", webhookId)
                .bind("projectId", projectId)
                .map((row, meta) -> Boolean.TRUE.equals(row.get("is_active", Boolean.class)))
                .one()
                .map(active -> active || !activeOnly)
                .defaultIfEmpty(false);
    }

    /**
     * Deactivates the webhook (spec 3: deliveries stop) and cancels its pending deliveries;
     * answers false when the project has no such webhook. Deactivating an inactive webhook
     * changes nothing and answers true.
     */
    public Mono<Boolean> deactivate(UUID projectId, UUID webhookId) {
        return db.sql("""
                UPDATE subscriptions SET is_active = FALSE, deactivated_at = COALESCE(deactivated_at, now())
                WHERE id = :id AND project_id = :projectId""")
                .bind("id", webhookId)
                .bind("projectId", projectId)
                .fetch().rowsUpdated()
                .flatMap(rows -> rows == 0 ? Mono.just(false)
                        : db.sql("UPDATE deliveries SET state = 'cancelled' WHERE subscription_id = :id AND state = 'pending'")
                                .bind("id", webhookId)
                                .then()
                                .thenReturn(true));
    }

    /** Replaces the secret of an active webhook; answers false when the project has no such active webhook. */
    public Mono<Boolean> replaceSecret(UUID projectId, UUID webhookId, byte[] secretCiphertext) {
        return db.sql("""
                UPDATE subscriptions SET secret_ciphertext = :secret, secret_rotated_at = now()
                WHERE id = :id AND project_id = :projectId AND is_active""")
                .bind("secret", secretCiphertext)
                .bind("id", webhookId)
                .bind("projectId", projectId)
                .fetch().rowsUpdated()
                .map(rows -> rows > 0);
    }
}
