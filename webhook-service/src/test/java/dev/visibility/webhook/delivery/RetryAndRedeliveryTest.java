package dev.visibility.webhook.delivery;

import static dev.visibility.platform.testing.Http.data;
import static dev.visibility.platform.testing.Http.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import dev.visibility.platform.testing.TestKafka;
import dev.visibility.webhook.support.Events;
import dev.visibility.webhook.support.Kafka;
import dev.visibility.webhook.support.Receiver;
import dev.visibility.webhook.support.Receiver.Answer;
import dev.visibility.webhook.support.Signatures;
import dev.visibility.webhook.support.WebhookApiTest;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * Failures and retries (spec 6.4.3, 8: a non-2xx or a time-out is a failure, retried up to 3
 * times with exponential back-off, every attempt logged), the dead-letter topic and the
 * {@code failed} state, and redelivery. The tests' back-off base is 1 s (jitter ±20 %).
 */
class RetryAndRedeliveryTest extends WebhookApiTest {

    private static final Duration WITHIN = Duration.ofSeconds(40);

    @Autowired
    @Qualifier(DeliveryKafkaConfiguration.RETRY_FACTORY)
    private ConcurrentKafkaListenerContainerFactory<Object, Object> retryConsumers;

    @Autowired
    private KafkaProperties kafka;

    @Autowired
    private KafkaListenerEndpointRegistry listeners;

    @Test
    void retryConsumersFetchWaitsNoLongerThanTheShortestRetryDelayWhenEveryOtherConsumerWaitsLonger() {
        // the tests run as the local suite does: every consumer's idle fetch waits 5 s at the broker ...
        assertThat(kafka.buildConsumerProperties()).containsEntry(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 5000);
        // ... but a retry consumer's at most the shortest delay before a retry (backoff-base 1 s less 20 % jitter):
        // a resumed partition's fetch waits behind the one in flight, which would delay the retry
        assertThat(retryConsumers.getConsumerFactory().getConfigurationProperties())
                .containsEntry(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 800);
        // ... the retry topics' containers keep the factory's; the dead-letter topic's consumers never
        // wait for a due time, so they fetch as seldom as every other consumer
        List<MessageListenerContainer> containers = List.copyOf(listeners.getAllListenerContainers());
        assertThat(containers).filteredOn(c -> subscribesTo(c, DeliveryTopics.DEAD_LETTERS)).singleElement()
                .satisfies(c -> assertThat(c.getContainerProperties().getKafkaConsumerProperties())
                        .containsEntry(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "5000"));
        assertThat(containers).filteredOn(c -> subscribesTo(c, DeliveryTopics.RETRY_FIRST)).singleElement()
                .satisfies(c -> assertThat(c.getContainerProperties().getKafkaConsumerProperties())
                        .doesNotContainKey(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG));
    }

    private static boolean subscribesTo(MessageListenerContainer container, String topic) {
        String[] topics = container.getContainerProperties().getTopics();
        return topics != null && Arrays.asList(topics).contains(topic);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aReceiverAnswering500GetsOnePlusThreeAttemptsThenTheDeliveryFailsAndRedeliverySendsItAgain() {
        try (Receiver receiver = Receiver.https().answeringAlways(500)) {
            String project = newProject();
            Map<String, Object> webhook = createWebhook(project, receiver.url("/failing"), "action.created");
            Kafka.publish(Kafka.event("action.created", project, Events.actionCreated()));

            List<Receiver.Received> requests = receiver.await(4, WITHIN);
            // the same delivery, the same bytes, every time
            String deliveryId = requests.get(0).header("X-Service-Delivery");
            assertThat(requests).extracting(r -> r.header("X-Service-Delivery")).containsOnly(deliveryId);
            assertThat(requests).allSatisfy(r -> assertThat(r.body()).isEqualTo(requests.get(0).body()));
            // growing gaps: nominal 1 s, 2 s, 4 s, each within ±20 %
            long first = millis(requests.get(0), requests.get(1));
            long second = millis(requests.get(1), requests.get(2));
            long third = millis(requests.get(2), requests.get(3));
            assertThat(first).isGreaterThanOrEqualTo(800);
            assertThat(second).isGreaterThan(first).isGreaterThanOrEqualTo(1600);
            assertThat(third).isGreaterThan(second).isGreaterThanOrEqualTo(3200);

            List<Map<String, Object>> log = awaitDeliveries(project, webhook.get("id"),
                    items -> items.size() == 1 && "failed".equals(items.get(0).get("state")), WITHIN);
            Map<String, Object> failed = log.get(0);
            assertThat(failed.get("id")).isEqualTo(deliveryId);
            List<Map<String, Object>> attempts = (List<Map<String, Object>>) failed.get("attempts");
            assertThat(attempts).extracting(a -> a.get("attempt")).containsExactly(1, 2, 3, 4);
            assertThat(attempts).allSatisfy(a -> assertThat(a).containsEntry("httpStatus", 500).containsEntry("errorClass", "http_status"));
            assertThat(failed.get("lastAttemptAt")).isEqualTo(attempts.get(3).get("at"));
            // no fifth attempt (spec 8: up to 3 retries): the sentinel is the delivery's record on the
            // dead-letter topic, where the last failed attempt sends it; no retry topic follows it
            TestKafka.awaitRecords(DeliveryTopics.DEAD_LETTERS, r -> r.value().contains(deliveryId), 1, WITHIN);
            assertThat(receiver.received()).hasSize(4);

            // redelivery: a new delivery id that names the original, the same body, signed, 202
            receiver.answeringAlways(200);
            Map<String, Object> envelope = json(post(project, "/webhooks/" + webhook.get("id") + "/deliveries/" + deliveryId
                    + "/redeliver", (String) null), 202);
            Map<String, Object> redelivery = data(envelope);
            assertThat(redelivery.get("id")).isNotEqualTo(deliveryId);
            assertThat(redelivery).containsEntry("redeliveryOf", deliveryId).containsEntry("state", "pending")
                    .containsEntry("attempts", List.of()).containsEntry("event", "action.created")
                    .containsEntry("eventId", failed.get("eventId")).containsEntry("lastAttemptAt", null);
            Receiver.Received again = receiver.await(5, WITHIN).get(4);
            assertThat(again.header("X-Service-Delivery")).isEqualTo(redelivery.get("id"));
            assertThat(again.header("X-Service-Redelivery-Of")).isEqualTo(deliveryId);
            assertThat(again.body()).isEqualTo(requests.get(0).body());
            assertThat(Signatures.verifies((String) webhook.get("secret"), again.body(), again.header("X-Service-Signature"))).isTrue();
            List<Map<String, Object>> after = awaitDeliveries(project, webhook.get("id"),
                    items -> items.size() == 2 && "succeeded".equals(items.get(0).get("state")), WITHIN);
            // newest first: the redelivery, then the failed original, unchanged
            assertThat(after.get(0).get("id")).isEqualTo(redelivery.get("id"));
            assertThat(after.get(1)).isEqualTo(failed);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void aRetryAfterOfTheReceiverIsHonoured() {
        try (Receiver receiver = Receiver.https().answering(n -> n == 1 ? Answer.of(503, Map.of("Retry-After", "3")) : Answer.of(204))) {
            String project = newProject();
            Map<String, Object> webhook = createWebhook(project, receiver.url("/busy"), "search-tracking.completed");
            Kafka.publish(Kafka.event("search-tracking.completed", project, Map.of("runId", "r", "finalStatus", "completed")));
            List<Receiver.Received> requests = receiver.await(2, WITHIN);
            // the nominal first delay is 1 s ±20 %; the receiver asked for 3 s
            assertThat(millis(requests.get(0), requests.get(1))).isGreaterThanOrEqualTo(3000);
            List<Map<String, Object>> log = awaitDeliveries(project, webhook.get("id"),
                    items -> items.size() == 1 && "succeeded".equals(items.get(0).get("state")), WITHIN);
            assertThat((List<Map<String, Object>>) log.get(0).get("attempts")).extracting(a -> a.get("httpStatus"))
                    .containsExactly(503, 204);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void aTimeOutIsAFailureAndTheNextAttemptCanSucceed() {
        // the tests' delivery time-out is 2 s
        try (Receiver receiver = Receiver.https().answering(n -> n == 1 ? Answer.after(Duration.ofSeconds(4), 200) : Answer.of(200))) {
            String project = newProject();
            Map<String, Object> webhook = createWebhook(project, receiver.url("/slow"), "action.updated");
            Kafka.publish(Kafka.event("action.updated", project, Map.of("event", "action.updated", "actionId", "a",
                    "origin", "system", "actor", Map.of("type", "system"), "changedFields", List.of("status"),
                    "action", Map.of("id", "a", "title", "t", "status", "accepted", "surface", "actions", "priority", "high"),
                    "links", Map.of())));
            List<Map<String, Object>> log = awaitDeliveries(project, webhook.get("id"),
                    items -> items.size() == 1 && "succeeded".equals(items.get(0).get("state")), WITHIN);
            List<Map<String, Object>> attempts = (List<Map<String, Object>>) log.get(0).get("attempts");
            assertThat(attempts).hasSize(2);
            assertThat(attempts.get(0)).containsEntry("attempt", 1).containsEntry("httpStatus", null)
                    .containsEntry("errorClass", "timeout");
            assertThat(((Number) attempts.get(0).get("durationMs")).longValue()).isBetween(1_900L, 3_900L);
            assertThat(attempts.get(1)).containsEntry("attempt", 2).containsEntry("httpStatus", 200).containsEntry("errorClass", null);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void aReceiverThatCannotBeReachedIsAConnectionFailure() {
        Receiver gone = Receiver.https();
        String url = gone.url("/gone");
        gone.close();
        String project = newProject();
        Map<String, Object> webhook = createWebhook(project, url, "action.created");
        Kafka.publish(Kafka.event("action.created", project, Events.actionCreated()));
        List<Map<String, Object>> log = awaitDeliveries(project, webhook.get("id"),
                items -> items.size() == 1 && "failed".equals(items.get(0).get("state")), WITHIN);
        assertThat((List<Map<String, Object>>) log.get(0).get("attempts"))
                .hasSize(4)
                .allSatisfy(a -> assertThat(a).containsEntry("httpStatus", null).containsEntry("errorClass", "connection"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void aFirstAttemptRecordSeenAgainAfterItsAttemptWasStoredIsNotSentTwice() {
        // what a crash between storing a failed first attempt and committing its offset leaves behind
        try (Receiver receiver = Receiver.https().answering(n -> n == 1 ? Answer.of(503, Map.of("Retry-After", "3")) : Answer.of(200))) {
            String project = newProject();
            Map<String, Object> webhook = createWebhook(project, receiver.url("/again"), "action.created");
            Kafka.publish(Kafka.event("action.created", project, Events.actionCreated()));
            String deliveryId = receiver.await(1, WITHIN).get(0).header("X-Service-Delivery");
            awaitDeliveries(project, webhook.get("id"), items -> ((List<?>) items.get(0).get("attempts")).size() == 1, WITHIN);

            Kafka.publishRaw(DeliveryTopics.FIRST, (String) webhook.get("id"),
                    "{\"deliveryId\":\"" + deliveryId + "\",\"webhookId\":\"" + webhook.get("id") + "\"}", Map.of());
            List<Map<String, Object>> log = awaitDeliveries(project, webhook.get("id"),
                    items -> "succeeded".equals(items.get(0).get("state")), WITHIN);
            // once the repeated record and every retry record (the first retry, and any the repeat had
            // caused) are processed: the delivery was sent twice in all, never attempted twice at once
            // platform consumers commit in the service's group (spring.application.name), the retry chain in its listener id
            TestKafka.awaitConsumed("webhook-service", DeliveryTopics.FIRST, WITHIN);
            TestKafka.awaitConsumed(RetryListener.ID, DeliveryTopics.RETRY_FIRST, WITHIN);
            assertThat(receiver.received()).hasSize(2).extracting(r -> r.header("X-Service-Delivery")).containsOnly(deliveryId);
            assertThat((List<Map<String, Object>>) deliveries(project, webhook.get("id")).get(0).get("attempts"))
                    .extracting(a -> a.get("httpStatus")).containsExactly(503, 200);
            assertThat(log).hasSize(1);
        }
    }

    private static long millis(Receiver.Received earlier, Receiver.Received later) {
        return Duration.ofNanos(later.nanoTime() - earlier.nanoTime()).toMillis();
    }
}
