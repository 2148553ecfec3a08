package dev.visibility.webhook.retention;

import static dev.visibility.platform.testing.Http.data;
import static dev.visibility.platform.testing.Http.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.webhook.support.Events;
import dev.visibility.webhook.support.Kafka;
import dev.visibility.webhook.support.Receiver;
import dev.visibility.webhook.support.WebhookApiTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;

/**
 * Retention of the delivery log (README "Retention", the spec is silent: 6.4.3 asks for the log,
 * not for how long): finished deliveries older than {@code suite.webhook.retention} (30 days)
 * go with their attempts, then the event bodies no delivery references; a pending delivery never
 * goes, nor one a remaining redelivery refers to. The deliveries are made for real, then their
 * timestamps are set back in the database.
 */
class RetentionTest extends WebhookApiTest {

    private static final Duration WITHIN = Duration.ofSeconds(30);
    private static final String PAST = "interval '31 days'";

    @Autowired
    RetentionPurge purge;

    @Autowired
    DatabaseClient db;

    @Test
    void finishedDeliveriesOlderThanTheRetentionGoWithTheirAttemptsAndBodiesButPendingOnesStay() {
        try (Receiver receiver = Receiver.https()) {
            String project = newProject();
            Map<String, Object> webhook = createWebhook(project, receiver.url("/retained"), "action.created");
            Object webhookId = webhook.get("id");
            for (int i = 0; i < 4; i++) {
                Kafka.publish(Kafka.event("action.created", project, Events.actionCreated()));
            }
            List<Map<String, Object>> log = awaitDeliveries(project, webhookId,
                    items -> items.size() == 4 && items.stream().allMatch(d -> "succeeded".equals(d.get("state"))), WITHIN);
            UUID old = id(log.get(3));
            UUID pending = id(log.get(2));
            UUID redelivered = id(log.get(1));
            UUID recent = id(log.get(0));
            // a redelivery of the third one, made now
            UUID redelivery = id(data(json(post(project, "/webhooks/" + webhookId + "/deliveries/" + redelivered
                    + "/redeliver", (String) null), 202)));
            awaitDeliveries(project, webhookId, items -> items.size() == 5
                    && items.stream().allMatch(d -> "succeeded".equals(d.get("state"))), WITHIN);

            // everything but the recent one and the redelivery finished 31 days ago; one is pending again
            setBack(List.of(old, pending, redelivered));
            UUID oldEvent = eventOf(old);
            UUID pendingEvent = eventOf(pending);
            execute("UPDATE deliveries SET state = 'pending' WHERE id = '" + pending + "'");

            purge.purgeExpired().block(WITHIN);

            assertThat(deliveryIds(webhookId)).containsExactlyInAnyOrder(pending, redelivered, recent, redelivery);
            assertThat(count("delivery_attempts WHERE delivery_id = '" + old + "'")).isZero();
            assertThat(eventStored(oldEvent)).isFalse();
            assertThat(count("delivery_attempts WHERE delivery_id = '" + pending + "'")).isEqualTo(1);
            assertThat(eventStored(pendingEvent)).isTrue();
            // the delivery log (6.4.3) no longer lists the purged one
            assertThat(deliveries(project, webhookId)).extracting(d -> d.get("id")).map(String.class::cast)
                    .containsExactlyInAnyOrder(pending.toString(), redelivered.toString(), recent.toString(), redelivery.toString());

            // once the redelivery, too, is older than the retention, both go, and so does their body
            UUID sharedEvent = eventOf(redelivery);
            setBack(List.of(redelivery));
            purge.purgeExpired().block(WITHIN);

            assertThat(deliveryIds(webhookId)).containsExactlyInAnyOrder(pending, recent);
            assertThat(eventStored(sharedEvent)).isFalse();
            assertThat(count("delivery_attempts WHERE delivery_id IN ('" + redelivered + "', '" + redelivery + "')")).isZero();
            // a pending delivery is never purged, however old
            purge.purgeExpired().block(WITHIN);
            assertThat(deliveryIds(webhookId)).contains(pending);
            assertThat(eventStored(pendingEvent)).isTrue();
        }
    }

    private void setBack(List<UUID> deliveries) {
        String ids = "'" + String.join("', '", deliveries.stream().map(UUID::toString).toList()) + "'";
        execute("UPDATE deliveries SET created_at = created_at - " + PAST + ", last_attempt_at = last_attempt_at - " + PAST
                + " WHERE id IN (" + ids + ")");
        execute("UPDATE delivery_attempts SET at = at - " + PAST + " WHERE delivery_id IN (" + ids + ")");
        execute("UPDATE events SET received_at = received_at - " + PAST
                + " WHERE event_id IN (SELECT event_id FROM deliveries WHERE id IN (" + ids + "))");
    }

    private static UUID id(Map<String, Object> delivery) {
        return UUID.fromString((String) delivery.get("id"));
    }

    private List<UUID> deliveryIds(Object webhookId) {
        return db.sql("SELECT id FROM deliveries WHERE subscription_id = :webhook")
                .bind("webhook", UUID.fromString(webhookId.toString()))
                .map((row, meta) -> row.get("id", UUID.class)).all().collectList().block(WITHIN);
    }

    private UUID eventOf(UUID delivery) {
        return db.sql("SELECT event_id FROM deliveries WHERE id = :id").bind("id", delivery)
                .map((row, meta) -> row.get("event_id", UUID.class)).one().block(WITHIN);
    }

    private boolean eventStored(UUID eventId) {
        return count("events WHERE event_id = '" + eventId + "'") > 0;
    }

    private long count(String fromWhere) {
        return db.sql("SELECT count(*) AS n FROM " + fromWhere).map((row, meta) -> row.get("n", Long.class)).one().block(WITHIN);
    }

    private void execute(String sql) {
        db.sql(sql).fetch().rowsUpdated().block(WITHIN);
    }
}
