package dev.visibility.webhook.delivery;

import static dev.visibility.webhook.support.SyntheticDeliveries.plan;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import dev.visibility.platform.db.ArrayLiterals;
import dev.visibility.webhook.support.SyntheticDeliveries;
import dev.visibility.webhook.support.WebhookApiTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;

/**
 * Every lookup of deliveries by event goes through the one unique index led by event_id (migration
 * V6, {@code deliveries_per_event}, which replaced {@code deliveries_by_event}), with 30,000
 * deliveries in the table, 7,500 of them pending: the fan-out's conflict check and its search for
 * deliveries an earlier run left unattempted (not through the pending deliveries' index, which is
 * as large as the service is behind), the move of a batch's deliveries to failed or cancelled by id
 * (likewise), and the check PostgreSQL makes for the foreign key when the purge deletes an event
 * body; no statement reads the whole table.
 */
class DeliveryLookupPlanTest extends WebhookApiTest {

    @Autowired
    DatabaseClient db;

    @Test
    void lookupsByEventAndByIdUseTheirIndexesAndNeverThePendingOnes() {
        try (SyntheticDeliveries log = SyntheticDeliveries.create(db, 10, 30_000)) {
            UUID[] eventIds = db.sql("SELECT event_id FROM deliveries WHERE subscription_id = :webhook LIMIT 300")
                    .bind("webhook", log.subscriptions().get(0))
                    .map(row -> row.get("event_id", UUID.class)).all().collectList().block().toArray(UUID[]::new);
            assertThat(eventIds).hasSize(300);
            String[] texts = new String[eventIds.length];
            Arrays.fill(texts, "action.created");
            UUID[] projects = new UUID[eventIds.length];
            Arrays.fill(projects, UUID.randomUUID());
            String fanOut = plan(db.sql("EXPLAIN " + FanOutStore.FAN_OUT)
                    .bind("eventIds", ArrayLiterals.uuids(eventIds))
                    .bind("projectIds", ArrayLiterals.uuids(projects))
                    .bind("events", ArrayLiterals.texts(texts))
                    .bind("bodies", ArrayLiterals.texts(texts))
                    .bind("traceparents", ArrayLiterals.texts(new String[eventIds.length]))
                    .bind("createdAt", Instant.now()));
            assertThat(fanOut).contains("Conflict Arbiter Indexes: deliveries_per_event")
                    .containsPattern("(Index (Only )?Scan using|Bitmap Index Scan on) deliveries_per_event")
                    .doesNotContain("deliveries_pending_by_activity")
                    .doesNotContain("Seq Scan on deliveries");

            // a batch's deliveries moved to failed or cancelled, by id
            String finish = plan(db.sql("EXPLAIN " + DeliveryStore.FINISH)
                    .bind("ids", ArrayLiterals.uuids(Arrays.copyOf(deliveryIds(log), 50)))
                    .bind("state", DeliveryState.CANCELLED.wireName()));
            assertThat(finish).contains("deliveries_pkey").doesNotContain("deliveries_pending_by_activity")
                    .doesNotContain("Seq Scan");

            // the query of PostgreSQL's referential-integrity check (ri_triggers.c) for a deleted event
            String foreignKey = plan(db.sql("EXPLAIN SELECT 1 FROM ONLY deliveries x WHERE event_id = :eventId FOR KEY SHARE OF x")
                    .bind("eventId", eventIds[0]));
            assertThat(foreignKey).contains("deliveries_per_event").doesNotContain("Seq Scan");
        }
    }

    /**
     * The indexes of deliveries are exactly those the README's "Tables" lists: each costs every
     * delivery an entry at its insert and another at each change of its state (never an in-place
     * update), so one more is a decision, not a side effect. V7 dropped {@code deliveries_one_per_event},
     * whose rule {@code deliveries_per_event} keeps: a second delivery of an event to the same webhook
     * is still refused, a redelivery of it is not.
     */
    @Test
    void deliveriesHaveTheIndexesTheReadmeListsAndStillOneDeliveryPerEventAndWebhook() {
        List<String> indexes = db.sql("SELECT indexname FROM pg_indexes WHERE tablename = 'deliveries' ORDER BY indexname")
                .map(row -> row.get("indexname", String.class)).all().collectList().block();
        assertThat(indexes).containsExactly("deliveries_finished_by_age", "deliveries_log_by_state",
                "deliveries_pending_by_activity", "deliveries_per_event", "deliveries_pkey", "deliveries_redelivery_of");
        try (SyntheticDeliveries log = SyntheticDeliveries.create(db, 1, 4)) {
            UUID webhook = log.subscriptions().get(0);
            UUID original = db.sql("SELECT id FROM deliveries WHERE subscription_id = :webhook LIMIT 1")
                    .bind("webhook", webhook).map(row -> row.get("id", UUID.class)).one().block();
            UUID event = db.sql("SELECT event_id FROM deliveries WHERE id = :id")
                    .bind("id", original).map(row -> row.get("event_id", UUID.class)).one().block();
            String insert = """
                    INSERT INTO deliveries (id, subscription_id, event_id, created_at, redelivery_of)
                    VALUES (gen_random_uuid(), :webhook, :event, now(), :of)
                    ON CONFLICT (event_id, subscription_id, (CASE WHEN redelivery_of IS NULL THEN NULL ELSE id END)) DO NOTHING""";
            assertThat(db.sql(insert).bind("webhook", webhook).bind("event", event).bindNull("of", UUID.class)
                    .fetch().rowsUpdated().block()).isZero();
            assertThat(db.sql(insert).bind("webhook", webhook).bind("event", event).bind("of", original)
                    .fetch().rowsUpdated().block()).isOne();
        }
    }

    private UUID[] deliveryIds(SyntheticDeliveries log) {
        return db.sql("SELECT id FROM deliveries WHERE subscription_id = :webhook AND state = 'pending' LIMIT 50")
                .bind("webhook", log.subscriptions().get(1))
                .map(row -> row.get("id", UUID.class)).all().collectList().block().toArray(UUID[]::new);
    }

}
