package dev.visibility.webhook.delivery;

import static dev.visibility.platform.testing.Http.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.platform.consumer.DeadLetters;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.testing.TestKafka;
import dev.visibility.webhook.support.Events;
import dev.visibility.webhook.support.Kafka;
import dev.visibility.webhook.support.Receiver;
import dev.visibility.webhook.support.WebhookApiTest;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;

/**
 * The fan-out of {@code public.events}: a record read again (a redelivery after a crash, or a
 * producer's duplicate) creates no second delivery; a record that is not a usable public event
 * is parked unchanged on the dead-letter topic and does not hold up the records behind it.
 */
class FanOutTest extends WebhookApiTest {

    private static final Duration WITHIN = Duration.ofSeconds(30);

    @Autowired
    FanOutStore store;

    @Autowired
    DatabaseClient db;

    /**
     * The fan-out statement run again for the same batch (a crash before the records reached the
     * broker): no delivery is created twice, and the deliveries never attempted are answered again so
     * that their records are sent again; once attempted, they are not. Only the active webhooks of
     * the event's project that list its name get one (spec 6: one delivery per subscribed webhook).
     */
    @Test
    void theFanOutStatementRunAgainCreatesNothingTwiceAndQueuesAgainWhatWasNeverAttempted() {
        try (Receiver receiver = Receiver.https()) {
            String project = newProject();
            UUID listing = UUID.fromString((String) createWebhook(project, receiver.url("/a"), "action.created").get("id"));
            UUID alsoListing = UUID.fromString((String) createWebhook(project, receiver.url("/b"), "action.created",
                    "action.updated").get("id"));
            createWebhook(project, receiver.url("/c"), "action.updated");
            UUID deleted = UUID.fromString((String) createWebhook(project, receiver.url("/d"), "action.created").get("id"));
            json(delete(project, "/webhooks/" + deleted), 200);
            createWebhook(newProject(), receiver.url("/other-project"), "action.created");

            UUID[] eventIds = {UUID.randomUUID()};
            UUID[] projects = {UUID.fromString(project)};
            String[] names = {"action.created"};
            String[] bodies = {"{\"event\":\"action.created\"}"};
            Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);

            List<FanOutStore.Queued> first = store.fanOut(eventIds, projects, names, bodies, now).collectList().block(WITHIN);
            assertThat(first).extracting(FanOutStore.Queued::webhookId).containsExactlyInAnyOrder(listing, alsoListing);
            List<FanOutStore.Queued> again = store.fanOut(eventIds, projects, names, bodies, now).collectList().block(WITHIN);
            assertThat(again).containsExactlyInAnyOrderElementsOf(first);

            db.sql("UPDATE deliveries SET attempt_count = 1 WHERE id = :id").bind("id", first.get(0).deliveryId())
                    .fetch().rowsUpdated().block(WITHIN);
            assertThat(store.fanOut(eventIds, projects, names, bodies, now).collectList().block(WITHIN))
                    .containsExactly(first.get(1));
            assertThat(db.sql("SELECT count(*) AS n FROM deliveries WHERE event_id = :event").bind("event", eventIds[0])
                    .map((row, meta) -> row.get("n", Long.class)).one().block(WITHIN)).isEqualTo(2L);
        }
    }

    @Test
    void theSameEventTwiceIsDeliveredOnce() {
        try (Receiver receiver = Receiver.https()) {
            String project = newProject();
            Map<String, Object> webhook = createWebhook(project, receiver.url("/once"), "action.created");
            Kafka.PublicEventRecord event = Kafka.event("action.created", project,
                    Events.actionCreated());
            Kafka.publish(event);
            Kafka.publish(event);
            // a later event of the same project (same partition) shows that both copies were handled
            Kafka.PublicEventRecord later = Kafka.event("action.created", project,
                    Events.actionCreated());
            Kafka.publish(later);

            receiver.await(2, WITHIN);
            List<Map<String, Object>> log = awaitDeliveries(project, webhook.get("id"),
                    items -> items.size() == 2 && items.stream().allMatch(d -> "succeeded".equals(d.get("state"))), WITHIN);
            assertThat(log).extracting(d -> d.get("eventId"))
                    .containsExactlyInAnyOrder(event.eventId().toString(), later.eventId().toString());
            assertThat(receiver.received()).hasSize(2);
        }
    }

    @Test
    void anUnusableRecordGoesToTheDeadLetterTopicAndTheNextOneIsDelivered() {
        try (Receiver receiver = Receiver.https()) {
            String project = newProject();
            createWebhook(project, receiver.url("/after-poison"), "action.created");
            String poison = "{\"eventId\":\"" + UUID.randomUUID() + "\",\"event\":\"action.created\",\"projectId\":\"" + project
                    + "\",\"timestamp\":\"not a time\",\"data\":{}}";
            Kafka.publishRaw(project, poison, Map.of());
            Kafka.publishRaw(project, "not json at all", Map.of());
            Kafka.PublicEventRecord good = Kafka.event("action.created", project,
                    Events.actionCreated());
            Kafka.publish(good);

            assertThat(receiver.await(1, WITHIN)).hasSize(1);
            List<String> parked = deadLetters(project, 2);
            assertThat(parked).containsExactly(poison, "not json at all");
        }
    }

    private static List<String> deadLetters(String key, int count) {
        return TestKafka.awaitRecords(DeadLetters.topic(Topics.PUBLIC_EVENTS), record -> key.equals(record.key()), count, WITHIN)
                .stream().map(ConsumerRecord::value).toList();
    }
}
