package dev.visibility.systemtests;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.platform.consumer.DeadLetters;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.testing.JsonShapes;
import dev.visibility.platform.testing.Http.Answer;
import dev.visibility.systemtests.Receiver.Received;
import org.junit.jupiter.api.Test;
import dev.visibility.platform.testing.TestKafka;

/**
 * Issue 4 through the gateway with real API keys: subscriptions (E13-E16 with their exact shapes),
 * signed delivery to a receiver in the test (spec 6.3, 6.4), retries and the delivery log, redelivery,
 * and deletion. The events are real: actions created through the public API (action.created).
 * Every webhook a test makes is deleted at its end (the seeded project is shared).
 */
class WebhookSystemTest extends SystemTest {

    private static final String SECRET = "whsec_[0-9a-f]{64}";

    private static String createAction(String title) {
        Answer created = post("/actions", Map.of("title", title, "description", "Made to trigger a webhook",
                "channels", List.of("content"), "priority", "low"), 201);
        return (String) created.data().get("id");
    }

    private static boolean about(Received delivery, String actionId) {
        return actionId.equals(delivery.data().get("actionId"));
    }

    /** The delivery log of a webhook through the gateway, newest first. */
    private static List<Map<String, Object>> deliveries(Object webhookId) {
        Map<String, Object> data = envelope(get("/webhooks/" + webhookId + "/deliveries?pageSize=100", 200), project());
        assertThat(data).containsOnlyKeys("deliveries", "pagination");
        assertThat(map(data.get("pagination"))).containsOnlyKeys("hasMore", "nextCursor", "pageSize");
        return list(data.get("deliveries"));
    }

    private static Map<String, Object> awaitDelivery(Object webhookId, String deliveryId, String state) {
        return Waits.until("delivery " + deliveryId + " is " + state, WITHIN,
                () -> deliveries(webhookId).stream().filter(d -> deliveryId.equals(d.get("id"))).findFirst().orElse(Map.of()),
                d -> state.equals(d.get("state")));
    }

    @Test
    void subscriptionsAreCreatedListedRotatedAndDeletedWithTheShapesOfE13ToE16() {
        try (Receiver receiver = Receiver.answering(204)) {
            String url = receiver.url("/lifecycle");
            // E13: 201 {data: {id, url, events, isActive, secret, createdAt}, meta}; the secret only here
            Answer created = post("/webhooks", Map.of("url", url, "events", List.of("action.created", "action.updated")), 201);
            Map<String, Object> webhook = envelope(created, project());
            String id = (String) webhook.get("id");
            try {
                assertThat(webhook).containsOnlyKeys("id", "url", "events", "isActive", "secret", "createdAt")
                        .containsEntry("url", url).containsEntry("events", List.of("action.created", "action.updated"))
                        .containsEntry("isActive", true);
                assertThat(UUID.fromString(id)).isNotNull();
                assertThat((String) webhook.get("secret")).matches(SECRET);
                assertThat(Instant.parse((String) webhook.get("createdAt"))).isNotNull();

                // E14: the active subscriptions, without secrets
                Answer listed = get("/webhooks", 200);
                Map<String, Object> list = envelope(listed, project());
                assertThat(list).containsOnlyKeys("webhooks");
                Map<String, Object> item = list(list.get("webhooks")).stream().filter(w -> id.equals(w.get("id"))).findFirst().orElseThrow();
                assertThat(item).containsOnlyKeys("id", "url", "events", "isActive", "createdAt").containsEntry("url", url)
                        .containsEntry("events", List.of("action.created", "action.updated")).containsEntry("isActive", true)
                        .containsEntry("createdAt", webhook.get("createdAt"));
                assertThat(listed.body()).doesNotContain((String) webhook.get("secret"));

                // E16: 200 {data: {secret}, meta}, a new secret
                Map<String, Object> rotated = envelope(post("/webhooks/" + id + "/rotate-secret", null, 200), project());
                assertThat(rotated).containsOnlyKeys("secret");
                assertThat((String) rotated.get("secret")).matches(SECRET).isNotEqualTo(webhook.get("secret"));

                // E15, E16: another project's key and path, unknown and malformed ids
                assertError(call("POST", otherProject(), "/webhooks/" + id + "/rotate-secret", otherKey(), null), 404, "not_found");
                assertError(call("DELETE", otherProject(), "/webhooks/" + id, otherKey(), null), 404, "not_found");
                assertError(call("DELETE", project(), "/webhooks/" + id, otherKey(), null), 404, "not_found");
                assertError(call("DELETE", project(), "/webhooks/" + UUID.randomUUID(), key(), null), 404, "not_found");
                assertError(call("POST", project(), "/webhooks/" + UUID.randomUUID() + "/rotate-secret", key(), null), 404, "not_found");
                assertBadParameter(call("DELETE", project(), "/webhooks/not-a-uuid", key(), null), "webhookId");
            } finally {
                // E15: 200 {deleted: true} without envelope
                Answer deleted = call("DELETE", project(), "/webhooks/" + id, key(), null);
                assertThat(deleted.status()).isEqualTo(200);
                assertThat(deleted.json()).isEqualTo(Map.of("deleted", true));
            }
            // section 3: deleted is inactive: not listed, and its secret cannot be rotated
            assertThat(ids(list(envelope(get("/webhooks", 200), project()).get("webhooks")))).doesNotContain(id);
            assertError(call("POST", project(), "/webhooks/" + id + "/rotate-secret", key(), null), 404, "not_found");
        }
        // E13: bad urls and event names are 400 naming the field
        assertBadParameter(call("POST", project(), "/webhooks", key(), Map.of("url", "ftp://example.com/hook",
                "events", List.of("action.created"))), "url");
        assertBadParameter(call("POST", project(), "/webhooks", key(), Map.of("url", "https://10.0.0.7/hook",
                "events", List.of("action.created"))), "url");
        assertBadParameter(call("POST", project(), "/webhooks", key(), Map.of("url", "https://hooks.example.com/x",
                "events", List.of("action.exploded"))), "events");
        assertBadParameter(call("POST", project(), "/webhooks", key(), Map.of("url", "https://hooks.example.com/x",
                "events", List.of())), "events");
    }

    @Test
    void deliveryIsSignedWithTheHeadersOfSpec63AndARotatedSecretReplacesTheOldOne() throws java.io.IOException {
        try (Receiver receiver = Receiver.answering(204)) {
            Map<String, Object> webhook = subscribe(project(), key(), receiver.url("/signed"), "action.created");
            String secret = (String) webhook.get("secret");
            try {
                String actionId = createAction("Signed delivery " + UUID.randomUUID());
                Received delivery = receiver.await(r -> about(r, actionId), 1, WITHIN).get(0);
                // spec 6.3
                assertThat(delivery.method()).isEqualTo("POST");
                assertThat(delivery.header("Content-Type")).startsWith("application/json");
                assertThat(delivery.header("X-Service-Event")).isEqualTo("action.created");
                assertThat(delivery.header("User-Agent")).isEqualTo("Service-Webhook/2.0");
                assertThat(delivery.header("X-Service-Signature")).matches("[0-9a-f]{64}");
                String deliveryId = delivery.header("X-Service-Delivery");
                assertThat(UUID.fromString(deliveryId)).isNotNull();
                // spec 6.4.1: HMAC-SHA256 of the raw body with the signing secret
                assertThat(delivery.verifies(secret)).isTrue();
                // spec 6.1 envelope and the published schema of the event
                assertThat(delivery.json()).containsOnlyKeys("event", "projectId", "accountId", "timestamp", "data")
                        .containsEntry("event", "action.created").containsEntry("projectId", project())
                        .containsEntry("accountId", account());
                JsonShapes.assertValidEvent("action.created", delivery.text());

                // the delivery log through the gateway: one succeeded attempt
                Map<String, Object> logged = awaitDelivery(webhook.get("id"), deliveryId, "succeeded");
                assertThat(logged).containsOnlyKeys("id", "event", "eventId", "state", "redeliveryOf", "attempts", "createdAt",
                        "lastAttemptAt").containsEntry("event", "action.created").containsEntry("redeliveryOf", null);
                assertThat(list(logged.get("attempts"))).singleElement().satisfies(a -> assertThat(a)
                        .containsEntry("attempt", 1).containsEntry("httpStatus", 204).containsEntry("errorClass", null));

                // spec 6.4.2: after rotation only the new secret verifies
                String rotated = (String) post("/webhooks/" + webhook.get("id") + "/rotate-secret", null, 200).data().get("secret");
                String laterId = createAction("Signed after rotation " + UUID.randomUUID());
                Received later = receiver.await(r -> about(r, laterId), 1, WITHIN).get(0);
                assertThat(later.verifies(rotated)).isTrue();
                assertThat(later.verifies(secret)).isFalse();

                // DESIGN.md: secrets are never logged (webhook-service's README: nor are receiver URLs)
                try (var logs = java.nio.file.Files.list(ServiceProcess.logsDir().toPath())) {
                    for (java.nio.file.Path log : logs.toList()) {
                        String text = java.nio.file.Files.readString(log);
                        assertThat(text).as(log.toString()).doesNotContain(secret).doesNotContain(rotated)
                                .doesNotContain(receiver.url("/signed"));
                    }
                }
            } finally {
                unsubscribe(project(), key(), webhook.get("id"));
            }
        }
    }

    @Test
    void failingReceiverGetsOnePlusThreeAttemptsThenTheDeliveryFailsAndRedeliveryIs202() {
        try (Receiver receiver = Receiver.answering(500)) {
            Map<String, Object> webhook = subscribe(project(), key(), receiver.url("/failing"), "action.created");
            try {
                String actionId = createAction("Failing receiver " + UUID.randomUUID());
                List<Received> attempts = receiver.await(r -> about(r, actionId), 4, WITHIN);
                // one delivery, the same bytes each time
                String deliveryId = attempts.get(0).header("X-Service-Delivery");
                assertThat(attempts).extracting(r -> r.header("X-Service-Delivery")).containsOnly(deliveryId);
                assertThat(attempts).extracting(Received::text).containsOnly(attempts.get(0).text());

                // spec 6.4.3 and 8: up to 3 retries, every attempt logged, then failed
                Map<String, Object> failed = awaitDelivery(webhook.get("id"), deliveryId, "failed");
                assertThat(list(failed.get("attempts"))).extracting(a -> a.get("attempt")).containsExactly(1, 2, 3, 4);
                assertThat(list(failed.get("attempts"))).allSatisfy(a -> assertThat(a).containsEntry("httpStatus", 500)
                        .containsEntry("errorClass", "http_status"));
                // no fifth attempt: the sentinel is the delivery's record on the dead-letter topic, where the
                // last failed attempt sends it; no retry topic follows it
                TestKafka.awaitRecords(DeadLetters.topic(Topics.WEBHOOK_DELIVERIES), r -> r.value().contains(deliveryId), 1, WITHIN);
                assertThat(receiver.received().stream().filter(r -> about(r, actionId))).hasSize(4);

                // redelivery: 202, a new delivery of the same body that names the original
                receiver.answeringAlways(200);
                Answer redeliver = post("/webhooks/" + webhook.get("id") + "/deliveries/" + deliveryId + "/redeliver", null, 202);
                Map<String, Object> redelivery = envelope(redeliver, project());
                assertThat(redelivery).containsEntry("redeliveryOf", deliveryId).containsEntry("state", "pending")
                        .containsEntry("event", "action.created").containsEntry("eventId", failed.get("eventId"));
                assertThat(redelivery.get("id")).isNotEqualTo(deliveryId);
                Received again = receiver.await(r -> about(r, actionId), 5, WITHIN).get(4);
                assertThat(again.header("X-Service-Delivery")).isEqualTo(redelivery.get("id"));
                assertThat(again.header("X-Service-Redelivery-Of")).isEqualTo(deliveryId);
                assertThat(again.text()).isEqualTo(attempts.get(0).text());
                assertThat(again.verifies((String) webhook.get("secret"))).isTrue();
                awaitDelivery(webhook.get("id"), (String) redelivery.get("id"), "succeeded");
                // the log and redelivery of another project's webhook are not found
                assertError(call("GET", otherProject(), "/webhooks/" + webhook.get("id") + "/deliveries", otherKey(), null),
                        404, "not_found");
                assertError(call("POST", otherProject(), "/webhooks/" + webhook.get("id") + "/deliveries/" + deliveryId
                        + "/redeliver", otherKey(), null), 404, "not_found");
                assertError(call("POST", project(), "/webhooks/" + webhook.get("id") + "/deliveries/" + UUID.randomUUID()
                        + "/redeliver", key(), null), 404, "not_found");
            } finally {
                unsubscribe(project(), key(), webhook.get("id"));
            }
        }
    }

    @Test
    void deletedWebhookGetsNoFurtherDeliveriesAndAnotherProjectsEventsNeverArrive() {
        try (Receiver deletedReceiver = Receiver.answering(204); Receiver controlReceiver = Receiver.answering(204)) {
            Map<String, Object> deleted = subscribe(project(), key(), deletedReceiver.url("/deleted"), "action.created");
            Map<String, Object> control = subscribe(project(), key(), controlReceiver.url("/control"), "action.created");
            try {
                String before = createAction("Before deletion " + UUID.randomUUID());
                deletedReceiver.await(r -> about(r, before), 1, WITHIN);
                controlReceiver.await(r -> about(r, before), 1, WITHIN);

                unsubscribe(project(), key(), deleted.get("id"));
                // another project's event, then this project's: the control webhook gets only this project's
                Answer theirs = call("POST", otherProject(), "/actions", otherKey(), Map.of("title", "Not yours",
                        "description", "An action of the other project", "channels", List.of("content"), "priority", "low"));
                assertThat(theirs.status()).as(theirs.body()).isEqualTo(201);
                String after = createAction("After deletion " + UUID.randomUUID());
                controlReceiver.await(r -> about(r, after), 1, WITHIN);
                // section 3: a deleted webhook's deliveries stop. Both webhooks are decided in the fan-out
                // transaction that made the control's delivery: the deleted one's log, still readable,
                // has no delivery but the one from before its deletion
                assertThat(deliveries(deleted.get("id"))).hasSize(1);
                assertThat(deletedReceiver.received()).noneMatch(r -> about(r, after));
                // spec 5.4: a project's webhooks never see another project's events
                assertThat(controlReceiver.received()).noneMatch(r -> about(r, (String) theirs.data().get("id")))
                        .allSatisfy(r -> assertThat(r.json()).containsEntry("projectId", project()));
            } finally {
                unsubscribe(project(), key(), control.get("id"));
            }
        }
    }
}
