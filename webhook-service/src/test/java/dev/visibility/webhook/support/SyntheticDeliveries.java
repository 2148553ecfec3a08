package dev.visibility.webhook.support;

import java.util.List;
import java.util.UUID;

import org.springframework.r2dbc.core.DatabaseClient;

/**
 * A delivery log big enough for PostgreSQL to choose its plans as it would in use: inactive
 * subscriptions of a project of its own, one event body per delivery, deliveries spread over the
 * subscriptions, a quarter of them pending (a service that is behind, created now: the pending
 * sweep leaves them alone) and the rest finished over the last 20 days, then {@code ANALYZE}. Written straight into the
 * tables (the plans are the subject, not the fan-out); {@link #close()} deletes it all again.
 */
public final class SyntheticDeliveries implements AutoCloseable {

    private final DatabaseClient db;
    private final UUID project;
    private final List<UUID> subscriptions;

    private SyntheticDeliveries(DatabaseClient db, UUID project, List<UUID> subscriptions) {
        this.db = db;
        this.project = project;
        this.subscriptions = subscriptions;
    }

    /** {@code deliveries} deliveries over {@code subscriptions} subscriptions. */
    public static SyntheticDeliveries create(DatabaseClient db, int subscriptions, int deliveries) {
        UUID project = UUID.randomUUID();
        db.sql("""
                WITH s AS (SELECT gen_random_uuid() AS id, j FROM generate_series(0, :subscriptions - 1) j),
                g AS (SELECT gen_random_uuid() AS event_id, i FROM generate_series(1, :deliveries) i),
                stored_subscriptions AS (
                    INSERT INTO subscriptions (id, project_id, url, events, is_active, secret_ciphertext, created_at)
                    SELECT id, :project, 'https://plans.example/' || j, ARRAY['action.created'], false, '\\x00'::bytea, now()
                    FROM s
                ), stored_events AS (
                    INSERT INTO events (event_id, project_id, event, body) SELECT event_id, :project, 'action.created', '{}' FROM g
                )
                INSERT INTO deliveries (id, subscription_id, event_id, state, attempt_count, created_at, last_attempt_at)
                SELECT gen_random_uuid(), s.id, g.event_id, (ARRAY['pending', 'succeeded', 'failed', 'cancelled'])[1 + g.i % 4],
                       CASE WHEN g.i % 4 = 0 THEN 0 ELSE 1 END,
                       CASE WHEN g.i % 4 = 0 THEN now() ELSE now() - g.i * interval '20 days' / :deliveries END,
                       CASE WHEN g.i % 4 = 0 THEN NULL ELSE now() - g.i * interval '20 days' / :deliveries END
                FROM g JOIN s ON s.j = g.i % :subscriptions""")
                .bind("subscriptions", subscriptions)
                .bind("deliveries", deliveries)
                .bind("project", project)
                .then()
                .then(db.sql("ANALYZE subscriptions, events, deliveries").then())
                .block();
        List<UUID> ids = db.sql("SELECT id FROM subscriptions WHERE project_id = :project ORDER BY id")
                .bind("project", project)
                .map(row -> row.get("id", UUID.class))
                .all().collectList().block();
        return new SyntheticDeliveries(db, project, ids);
    }

    /** The plan an {@code EXPLAIN} statement answers, as one text. */
    public static String plan(DatabaseClient.GenericExecuteSpec explain) {
        return String.join("\n", explain.map(row -> row.get(0, String.class)).all().collectList().block());
    }

    public List<UUID> subscriptions() {
        return subscriptions;
    }

    @Override
    public void close() {
        db.sql("DELETE FROM deliveries WHERE subscription_id IN (SELECT id FROM subscriptions WHERE project_id = :project)")
                .bind("project", project).then()
                .then(db.sql("DELETE FROM events WHERE project_id = :project").bind("project", project).then())
                .then(db.sql("DELETE FROM subscriptions WHERE project_id = :project").bind("project", project).then())
                .block();
    }
}
