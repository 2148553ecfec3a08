package dev.visibility.webhook.delivery;

import static dev.visibility.platform.testing.Http.data;
import static dev.visibility.platform.testing.Http.error;
import static dev.visibility.platform.testing.Http.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.visibility.platform.testing.TestKafka;
import dev.visibility.webhook.support.Events;
import dev.visibility.webhook.support.Kafka;
import dev.visibility.webhook.support.Receiver;
import dev.visibility.webhook.support.Receiver.Answer;
import dev.visibility.webhook.support.Signatures;
import dev.visibility.webhook.support.WebhookApiTest;
import org.junit.jupiter.api.Test;

/** Spec 3 (webhook subscription states), 6.4.2: rotation invalidates the old secret at once; deletion stops deliveries. */
class RotationAndDeletionTest extends WebhookApiTest {

    private static final Duration WITHIN = Duration.ofSeconds(30);

    @Test
    void afterRotationDeliveriesVerifyOnlyWithTheNewSecret() {
        try (Receiver receiver = Receiver.https()) {
            String project = newProject();
            Map<String, Object> webhook = createWebhook(project, receiver.url("/rotated"), "action.created");
            String oldSecret = (String) webhook.get("secret");
            String newSecret = (String) data(json(post(project, "/webhooks/" + webhook.get("id") + "/rotate-secret",
                    (String) null), 200)).get("secret");

            Kafka.publish(Kafka.event("action.created", project, Events.actionCreated()));
            Receiver.Received request = receiver.await(1, WITHIN).get(0);
            String signature = request.header("X-Service-Signature");
            assertThat(Signatures.verifies(newSecret, request.body(), signature)).isTrue();
            assertThat(Signatures.verifies(oldSecret, request.body(), signature)).isFalse();
        }
    }

    @Test
    void aRetryAfterRotationIsSignedWithTheNewSecret() {
        try (Receiver receiver = Receiver.https().answering(n -> n == 1 ? Answer.of(503, Map.of("Retry-After", "3")) : Answer.of(200))) {
            String project = newProject();
            Map<String, Object> webhook = createWebhook(project, receiver.url("/rotating"), "action.created");
            Kafka.publish(Kafka.event("action.created", project, Events.actionCreated()));
            Receiver.Received first = receiver.await(1, WITHIN).get(0);
            String newSecret = (String) data(json(post(project, "/webhooks/" + webhook.get("id") + "/rotate-secret",
                    (String) null), 200)).get("secret");

            // the same delivery and bytes, signed with the secret current at the time of the attempt
            Receiver.Received retry = receiver.await(2, WITHIN).get(1);
            assertThat(retry.header("X-Service-Delivery")).isEqualTo(first.header("X-Service-Delivery"));
            assertThat(retry.body()).isEqualTo(first.body());
            assertThat(Signatures.verifies((String) webhook.get("secret"), first.body(), first.header("X-Service-Signature"))).isTrue();
            assertThat(Signatures.verifies(newSecret, retry.body(), retry.header("X-Service-Signature"))).isTrue();
            assertThat(Signatures.verifies((String) webhook.get("secret"), retry.body(), retry.header("X-Service-Signature"))).isFalse();
        }
    }

    @Test
    void aDeletedWebhookGetsNoDelivery() {
        try (Receiver deletedReceiver = Receiver.https(); Receiver activeReceiver = Receiver.https()) {
            String project = newProject();
            Map<String, Object> deleted = createWebhook(project, deletedReceiver.url("/deleted"), "action.created");
            Map<String, Object> active = createWebhook(project, activeReceiver.url("/active"), "action.created");
            json(delete(project, "/webhooks/" + deleted.get("id")), 200);

            Kafka.publish(Kafka.event("action.created", project, Events.actionCreated()));
            // both webhooks are decided in the same fan-out transaction: once the active one has its
            // delivery, the deleted one would have had one too
            activeReceiver.await(1, WITHIN);
            awaitDeliveries(project, active.get("id"), items -> items.size() == 1, WITHIN);
            assertThat(deliveries(project, deleted.get("id"))).isEmpty();
            assertThat(deletedReceiver.received()).isEmpty();
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void deletionStopsTheRetriesOfAPendingDelivery() {
        try (Receiver receiver = Receiver.https().answeringAlways(503)) {
            receiver.answering(n -> Answer.of(503, Map.of("Retry-After", "3")));
            String project = newProject();
            Map<String, Object> webhook = createWebhook(project, receiver.url("/stopping"), "action.created");
            Kafka.publish(Kafka.event("action.created", project, Events.actionCreated()));
            receiver.await(1, WITHIN);
            awaitDeliveries(project, webhook.get("id"), items -> items.size() == 1
                    && ((List<?>) items.get(0).get("attempts")).size() == 1, WITHIN);
            json(delete(project, "/webhooks/" + webhook.get("id")), 200);

            // spec 3: deliveries stop; the retry was due 3 s after the first attempt
            List<Map<String, Object>> log = deliveries(project, webhook.get("id"));
            assertThat(log.get(0)).containsEntry("state", "cancelled");
            // the sentinel: the retry consumer has processed the retry record (due 3 s after the first attempt)
            TestKafka.awaitConsumed(RetryListener.ID, DeliveryTopics.RETRY_FIRST, WITHIN);
            assertThat(receiver.received()).hasSize(1);
            assertThat((List<Map<String, Object>>) deliveries(project, webhook.get("id")).get(0).get("attempts")).hasSize(1);
            // and it cannot be redelivered while the webhook is inactive
            assertThat(error(post(project, "/webhooks/" + webhook.get("id") + "/deliveries/" + log.get(0).get("id")
                    + "/redeliver", (String) null), 404)).containsEntry("error", "not_found");
        }
    }
}
