package dev.visibility.webhook.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.visibility.webhook.support.Events;
import dev.visibility.webhook.support.Kafka;
import dev.visibility.webhook.support.Receiver;
import dev.visibility.webhook.support.WebhookApiTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * No event lost: the delivery consumer dies between the HTTP call and storing the attempt (an
 * {@link Error} thrown there stops the consumer the way a crash does: no error handling, no
 * offset commit). After a restart the record is read again and the same delivery is sent again,
 * with the same {@code X-Service-Delivery}; the receiver de-duplicates on it.
 */
class CrashRecoveryTest extends WebhookApiTest {

    private static final Duration WITHIN = Duration.ofSeconds(60);

    /** What a process crash is to the consumer: nothing after this point runs. */
    static final class SimulatedCrash extends Error {
        SimulatedCrash() {
            super("simulated crash between the HTTP call and storing the attempt", null, false, false);
        }
    }

    @Autowired
    DeliveryHooks hooks;

    @Autowired
    KafkaListenerEndpointRegistry registry;

    @AfterEach
    void removeHook() {
        hooks.afterAnswer((deliveryId, webhookId, outcome) -> { });
    }

    @Test
    @SuppressWarnings("unchecked")
    void aCrashBetweenTheHttpCallAndStoringTheAttemptLosesNoDelivery() {
        try (Receiver receiver = Receiver.https()) {
            String project = newProject();
            Map<String, Object> webhook = createWebhook(project, receiver.url("/crash"), "action.created");
            UUID webhookId = UUID.fromString((String) webhook.get("id"));
            AtomicBoolean crashed = new AtomicBoolean();
            hooks.afterAnswer((deliveryId, forWebhook, outcome) -> {
                if (forWebhook.equals(webhookId) && crashed.compareAndSet(false, true)) {
                    throw new SimulatedCrash();
                }
            });
            MessageListenerContainer container = registry.getListenerContainer(FirstAttemptListener.ID);

            Kafka.publish(Kafka.event("action.created", project, Events.actionCreated()));
            Receiver.Received first = receiver.await(1, WITHIN).get(0);
            awaitStopped(container);
            // the receiver got it, but the service stored nothing of the attempt
            List<Map<String, Object>> log = deliveries(project, webhookId);
            assertThat(log).hasSize(1);
            assertThat(log.get(0)).containsEntry("state", "pending").containsEntry("attempts", List.of())
                    .containsEntry("id", first.header("X-Service-Delivery"));

            container.start();
            Receiver.Received second = receiver.await(2, WITHIN).get(1);
            assertThat(second.header("X-Service-Delivery")).isEqualTo(first.header("X-Service-Delivery"));
            assertThat(second.body()).isEqualTo(first.body());
            List<Map<String, Object>> after = awaitDeliveries(project, webhookId,
                    items -> "succeeded".equals(items.get(0).get("state")), WITHIN);
            assertThat(after).hasSize(1);
            assertThat((List<Map<String, Object>>) after.get(0).get("attempts"))
                    .singleElement().satisfies(a -> assertThat(a).containsEntry("attempt", 1).containsEntry("httpStatus", 200));
        } finally {
            MessageListenerContainer container = registry.getListenerContainer(FirstAttemptListener.ID);
            if (container != null && !container.isRunning()) {
                container.start();
            }
        }
    }

    private static void awaitStopped(MessageListenerContainer container) {
        await("the delivery consumer stopped").atMost(WITHIN).until(() -> !container.isRunning());
    }
}
