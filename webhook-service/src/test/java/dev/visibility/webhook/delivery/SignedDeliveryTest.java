package dev.visibility.webhook.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.platform.testing.Http;
import dev.visibility.webhook.support.Events;
import dev.visibility.webhook.support.Kafka;
import dev.visibility.webhook.support.Receiver;
import dev.visibility.webhook.support.Signatures;
import dev.visibility.webhook.support.WebhookApiTest;
import org.junit.jupiter.api.Test;

/**
 * Signed delivery (spec 6, 6.1, 6.2, 6.3, 6.4.1) from a record on {@code public.events} to a real
 * HTTPS receiver, through the real broker and database.
 */
class SignedDeliveryTest extends WebhookApiTest {

    private static final Duration WITHIN = Duration.ofSeconds(30);

    @Test
    void actionCreatedIsPostedWithTheEnvelopeSignatureAndHeaders() {
        try (Receiver receiver = Receiver.https()) {
            String project = newProject();
            Map<String, Object> webhook = createWebhook(project, receiver.url("/hooks/actions"), "action.created");
            String secret = (String) webhook.get("secret");
            Map<String, Object> data = Events.actionCreated();
            Kafka.PublicEventRecord event = Kafka.event("action.created", project, data);
            Kafka.publish(event);

            Receiver.Received request = receiver.await(1, WITHIN).get(0);
            assertThat(request.method()).isEqualTo("POST");
            assertThat(request.path()).isEqualTo("/hooks/actions");
            // spec 6.3: the four headers, exactly
            assertThat(request.header("Content-Type")).isEqualTo("application/json");
            assertThat(request.header("User-Agent")).isEqualTo("Service-Webhook/2.0");
            assertThat(request.header("X-Service-Event")).isEqualTo("action.created");
            assertThat(request.header("X-Service-Signature"))
                    .isEqualTo(Signatures.hmacHex(secret, request.body()))
                    .matches("^[0-9a-f]{64}$");
            assertThat(Signatures.verifies(secret, request.body(), request.header("X-Service-Signature"))).isTrue();
            UUID deliveryId = UUID.fromString(request.header("X-Service-Delivery"));

            // spec 6.1: {event, projectId, accountId, timestamp, data}; the record's eventId is not part of it
            @SuppressWarnings("unchecked")
            Map<String, Object> body = Http.parse(new String(request.body(), StandardCharsets.UTF_8));
            assertThat(body.keySet()).containsExactly("event", "projectId", "accountId", "timestamp", "data");
            assertThat(body).containsEntry("event", "action.created").containsEntry("projectId", project)
                    .containsEntry("accountId", Kafka.ACCOUNT);
            assertThat(Instant.parse((String) body.get("timestamp"))).isEqualTo(Instant.parse(event.timestamp()));
            assertThat((String) body.get("timestamp")).endsWith("Z");
            // spec 6.2: the data of the event, as the producer wrote it
            assertThat(body.get("data")).isEqualTo(Http.parse(event.dataJson()));

            // spec 6.4.3: the attempt is in the log, under the id the receiver saw
            List<Map<String, Object>> log = awaitDeliveries(project, webhook.get("id"),
                    items -> items.size() == 1 && "succeeded".equals(items.get(0).get("state")), WITHIN);
            Map<String, Object> delivery = log.get(0);
            assertThat(delivery.keySet()).containsExactlyInAnyOrder("id", "event", "eventId", "state", "redeliveryOf",
                    "attempts", "createdAt", "lastAttemptAt");
            assertThat(delivery).containsEntry("id", deliveryId.toString()).containsEntry("event", "action.created")
                    .containsEntry("eventId", event.eventId().toString()).containsEntry("redeliveryOf", null);
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> attempts = (List<Map<String, Object>>) delivery.get("attempts");
            assertThat(attempts).hasSize(1);
            assertThat(attempts.get(0).keySet()).containsExactlyInAnyOrder("attempt", "at", "httpStatus", "durationMs", "errorClass");
            assertThat(attempts.get(0)).containsEntry("attempt", 1).containsEntry("httpStatus", 200)
                    .containsEntry("errorClass", null);
            assertThat(((Number) attempts.get(0).get("durationMs")).longValue()).isBetween(0L, 2_000L);
            assertThat(delivery.get("lastAttemptAt")).isEqualTo(attempts.get(0).get("at"));
        }
    }

    @Test
    void searchTrackingCompletedIsDeliveredWithItsData() {
        try (Receiver receiver = Receiver.https()) {
            String project = newProject();
            Map<String, Object> webhook = createWebhook(project, receiver.url("/runs"), "search-tracking.completed");
            String runId = UUID.randomUUID().toString();
            Kafka.PublicEventRecord event = Kafka.event("search-tracking.completed", project,
                    Map.of("runId", runId, "finalStatus", "completed"));
            Kafka.publish(event);

            Receiver.Received request = receiver.await(1, WITHIN).get(0);
            assertThat(request.header("X-Service-Event")).isEqualTo("search-tracking.completed");
            assertThat(Signatures.verifies((String) webhook.get("secret"), request.body(), request.header("X-Service-Signature")))
                    .isTrue();
            @SuppressWarnings("unchecked")
            Map<String, Object> body = Http.parse(request.body());
            // spec 6.2: runId, finalStatus
            assertThat(body.get("data")).isEqualTo(Map.of("runId", runId, "finalStatus", "completed"));
            assertThat(body).containsEntry("event", "search-tracking.completed");
        }
    }

    @Test
    void decimalNumbersOfTheDataKeepTheirDigits() {
        try (Receiver receiver = Receiver.https()) {
            String project = newProject();
            createWebhook(project, receiver.url("/visibility"), "visibility.changed");
            Kafka.PublicEventRecord event = new Kafka.PublicEventRecord(UUID.randomUUID(), "visibility.changed", project,
                    Kafka.ACCOUNT, "2026-11-22T08:00:00.250Z",
                    "{\"runId\":\"r-1\",\"capturedOn\":\"2026-11-22\",\"metrics\":{\"visibilityScore\":41.50,"
                            + "\"citationCount\":12,\"brandMentionCount\":3,\"sampleCount\":40},\"previousMetrics\":null}");
            Kafka.publish(event);
            String body = new String(receiver.await(1, WITHIN).get(0).body(), StandardCharsets.UTF_8);
            // spec 6.2: previousMetrics null on a first run; the body is serialized once, numbers as produced
            assertThat(body).isEqualTo("{\"event\":\"visibility.changed\",\"projectId\":\"" + project + "\",\"accountId\":\""
                    + Kafka.ACCOUNT + "\",\"timestamp\":\"2026-11-22T08:00:00.250Z\",\"data\":{\"runId\":\"r-1\","
                    + "\"capturedOn\":\"2026-11-22\",\"metrics\":{\"visibilityScore\":41.50,\"citationCount\":12,"
                    + "\"brandMentionCount\":3,\"sampleCount\":40},\"previousMetrics\":null}}");
        }
    }

    @Test
    void onlySubscribedEventsOfTheOwnProjectAreDelivered() {
        try (Receiver receiver = Receiver.https(); Receiver otherReceiver = Receiver.https()) {
            String project = newProject();
            String other = newProject();
            Map<String, Object> webhook = createWebhook(project, receiver.url("/only-actions"), "action.created");
            createWebhook(other, otherReceiver.url("/other"), "action.created");

            // same key, same partition: the unsubscribed event is handled before the subscribed one
            Kafka.publish(Kafka.event("search-tracking.completed", project, Map.of("runId", "r", "finalStatus", "completed")));
            Kafka.publish(Kafka.event("action.created", other, Events.actionCreated()));
            Kafka.PublicEventRecord subscribed = Kafka.event("action.created", project, Events.actionCreated());
            Kafka.publish(subscribed);

            otherReceiver.await(1, WITHIN);
            receiver.await(1, WITHIN);
            assertThat(receiver.received()).hasSize(1);
            assertThat(receiver.received().get(0).header("X-Service-Event")).isEqualTo("action.created");
            assertThat(deliveries(project, webhook.get("id"))).extracting(d -> d.get("eventId"))
                    .containsExactly(subscribed.eventId().toString());
        }
    }

    @Test
    void everySubscribedWebhookOfTheProjectGetsItsOwnDelivery() {
        try (Receiver first = Receiver.https(); Receiver second = Receiver.https()) {
            String project = newProject();
            Map<String, Object> a = createWebhook(project, first.url("/a"), "action.updated", "action.created");
            Map<String, Object> b = createWebhook(project, second.url("/b"), "action.created");
            Kafka.publish(Kafka.event("action.created", project, Events.actionCreated()));

            Receiver.Received toA = first.await(1, WITHIN).get(0);
            Receiver.Received toB = second.await(1, WITHIN).get(0);
            // the same body, each signed with its own webhook's secret, each with its own delivery id
            assertThat(toA.body()).isEqualTo(toB.body());
            assertThat(Signatures.verifies((String) a.get("secret"), toA.body(), toA.header("X-Service-Signature"))).isTrue();
            assertThat(Signatures.verifies((String) b.get("secret"), toB.body(), toB.header("X-Service-Signature"))).isTrue();
            assertThat(Signatures.verifies((String) a.get("secret"), toB.body(), toB.header("X-Service-Signature"))).isFalse();
            assertThat(toA.header("X-Service-Delivery")).isNotEqualTo(toB.header("X-Service-Delivery"));
        }
    }
}
