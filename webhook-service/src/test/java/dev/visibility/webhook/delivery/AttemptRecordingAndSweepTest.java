package dev.visibility.webhook.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import dev.visibility.webhook.delivery.CrashRecoveryTest.SimulatedCrash;
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
 * Issue 22, webhooks: a first attempt's outcome is stored as it completes, so a crash later in
 * the same batch sends again only the deliveries whose outcome was not stored, with the same
 * {@code X-Service-Delivery}; and a delivery left {@code pending} with nothing on its way to it
 * is queued again by the sweep and delivered.
 */
class AttemptRecordingAndSweepTest extends WebhookApiTest {

    private static final Duration WITHIN = Duration.ofSeconds(60);

    @Autowired
    DeliveryHooks hooks;
    @Autowired
    KafkaListenerEndpointRegistry registry;
    @Autowired
    PendingSweeper sweeper;
    @Autowired
    DeliveryStore store;

    @AfterEach
    void restore() {
        hooks.afterAnswer((deliveryId, webhookId, outcome) -> { });
        MessageListenerContainer container = registry.getListenerContainer(FirstAttemptListener.ID);
        if (container != null && !container.isRunning()) {
            container.start();
        }
    }

    @Test
    void aCrashLaterInTheBatchSendsAgainOnlyTheAttemptNotStoredYet() {
        // the first POST is answered at once, the second after 3 s: the crash comes with the second answer
        try (Receiver receiver = Receiver.https().answering(n -> n == 2 ? Receiver.Answer.after(Duration.ofSeconds(3), 200)
                : Receiver.Answer.of(200))) {
            String project = newProject();
            UUID webhookId = UUID.fromString((String) createWebhook(project, receiver.url("/batch"), "action.created").get("id"));
            MessageListenerContainer container = registry.getListenerContainer(FirstAttemptListener.ID);
            // both deliveries' records wait on one partition (key: webhook id) and come in one batch
            container.stop();
            Kafka.publish(Kafka.event("action.created", project, Events.actionCreated()));
            Kafka.publish(Kafka.event("action.created", project, Events.actionCreated()));
            awaitDeliveries(project, webhookId, items -> items.size() == 2, WITHIN);
            AtomicInteger answers = new AtomicInteger();
            hooks.afterAnswer((deliveryId, forWebhook, outcome) -> {
                if (forWebhook.equals(webhookId) && answers.incrementAndGet() == 2) {
                    throw new SimulatedCrash();
                }
            });
            container.start();
            List<Receiver.Received> beforeCrash = receiver.await(2, WITHIN);
            await("the consumer stopped by the crash").atMost(WITHIN).until(() -> !container.isRunning());
            String answeredFirst = beforeCrash.get(0).header("X-Service-Delivery");
            // the attempt answered first was stored before the crash, the other was not
            assertThat(deliveries(project, webhookId)).anySatisfy(d -> assertThat(d).containsEntry("id", answeredFirst)
                    .containsEntry("state", "succeeded"));

            container.start();
            awaitDeliveries(project, webhookId,
                    items -> items.stream().allMatch(d -> "succeeded".equals(d.get("state"))), WITHIN);
            List<String> ids = receiver.received().stream().map(r -> r.header("X-Service-Delivery")).toList();
            String answeredSecond = beforeCrash.get(1).header("X-Service-Delivery");
            // the unrecorded one once more, with its own id; the recorded one never again
            assertThat(ids).containsExactlyInAnyOrder(answeredFirst, answeredSecond, answeredSecond);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void aDeliveryLeftPendingWithNothingOnItsWayIsQueuedAgainAndDelivered() {
        try (Receiver receiver = Receiver.https().answeringAlways(200)) {
            String project = newProject();
            UUID webhookId = UUID.fromString((String) createWebhook(project, receiver.url("/sweep"), "action.created").get("id"));
            Kafka.publish(Kafka.event("action.created", project, Events.actionCreated()));
            Map<String, Object> delivered = awaitDeliveries(project, webhookId,
                    items -> items.size() == 1 && "succeeded".equals(items.get(0).get("state")), WITHIN).get(0);
            // a pending delivery of the same event, 20 minutes old, whose webhook.deliveries record never came
            UUID stuck = UUID.randomUUID();
            store.insertRedelivery(stuck, webhookId, UUID.fromString((String) delivered.get("eventId")),
                    UUID.fromString((String) delivered.get("id")), Instant.now().minus(20, ChronoUnit.MINUTES)
                            .truncatedTo(ChronoUnit.MICROS)).block();

            assertThat(sweeper.sweepOnce().block()).isGreaterThanOrEqualTo(1L);
            Receiver.Received again = receiver.await(2, WITHIN).get(1);
            assertThat(again.header("X-Service-Delivery")).isEqualTo(stuck.toString());
            List<Map<String, Object>> log = awaitDeliveries(project, webhookId,
                    items -> items.stream().allMatch(d -> "succeeded".equals(d.get("state"))), WITHIN);
            assertThat(log).hasSize(2);
            // requeued once: a second sweep finds nothing of this webhook's left
            assertThat(sweeper.sweepOnce().block()).isZero();
        }
    }
}
