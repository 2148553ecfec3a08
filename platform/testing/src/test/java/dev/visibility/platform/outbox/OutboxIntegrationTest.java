package dev.visibility.platform.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.visibility.platform.db.DatabaseWakeups;
import dev.visibility.platform.events.EventName;
import dev.visibility.platform.events.PublicEvent;
import dev.visibility.platform.events.SearchTrackingCompleted;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.testapp.TestApplication;
import dev.visibility.platform.testing.SharedInfrastructure;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * DESIGN.md Kafka: a service that changes its database and publishes does so through a
 * transactional outbox; producers are idempotent; consumers are idempotent by eventId.
 * Real PostgreSQL and a real Kafka broker.
 */
@SpringBootTest(classes = TestApplication.class)
class OutboxIntegrationTest {

    @Autowired
    DatabaseClient db;
    @Autowired
    ReactiveTransactionManager transactionManager;
    @Autowired
    KafkaProperties kafkaProperties;
    @Autowired
    OutboxWriter writer;
    @Autowired
    ProcessedEvents processedEvents;
    @Autowired
    DatabaseWakeups wakeups;

    private TransactionalOperator tx() {
        return TransactionalOperator.create(transactionManager);
    }

    private OutboxRelay newRelay() {
        return newRelay(Duration.ofMillis(50), Duration.ofMillis(50));
    }

    private OutboxRelay newRelay(Duration pollInterval, Duration idlePollInterval) {
        return OutboxRelay.create(db, transactionManager, kafkaProperties, wakeups,
                new OutboxProperties(true, pollInterval, idlePollInterval, 100, Duration.ofSeconds(20), null));
    }

    private static String topic() {
        return "outbox-test-" + UUID.randomUUID();
    }

    private Mono<Void> insertThing(UUID id) {
        return db.sql("INSERT INTO things (id, name) VALUES (:id, 'x')").bind("id", id).then();
    }

    @Test
    void rolledBackTransactionPublishesNothing() {
        String topic = topic();
        UUID eventId = UUID.randomUUID();
        UUID thing = UUID.randomUUID();
        Mono<Void> work = insertThing(thing)
                .then(writer.append(topic, "k", eventId, "test.event", Map.of("n", 1)))
                .then(Mono.error(new IllegalStateException("business rule failed after the append")));
        tx().transactional(work).onErrorResume(IllegalStateException.class, e -> Mono.empty()).block();

        assertThat(count("SELECT count(*) FROM outbox WHERE event_id = '" + eventId + "'")).isZero();
        assertThat(count("SELECT count(*) FROM things WHERE id = '" + thing + "'")).isZero();
        OutboxRelay relay = newRelay();
        try {
            relay.relayOnce().block();
        } finally {
            relay.stop();
        }
        assertThat(consume(topic, 1, Duration.ofSeconds(3))).isEmpty();
    }

    @Test
    void committedRowIsPublishedWithItsEventIdAndMarkedSent() {
        String topic = topic();
        UUID thing = UUID.randomUUID();
        PublicEvent<SearchTrackingCompleted> event = PublicEvent.of(EventName.SEARCH_TRACKING_COMPLETED,
                "0d6f2b1e-1111-4c3c-8a7a-9f2b6c1d0e22", "acct-1", new SearchTrackingCompleted("run-1", "completed"));
        tx().transactional(insertThing(thing).then(
                writer.append(topic, event.projectId(), event.eventId(), event.event(), event))).block();

        OutboxRelay relay = newRelay();
        relay.start();
        try {
            List<ConsumerRecord<String, String>> records = consume(topic, 1, Duration.ofSeconds(20));
            assertThat(records).hasSize(1);
            ConsumerRecord<String, String> record = records.get(0);
            assertThat(record.key()).isEqualTo(event.projectId());
            assertThat(header(record, Topics.EVENT_ID_HEADER)).isEqualTo(event.eventId().toString());
            assertThat(header(record, Topics.EVENT_TYPE_HEADER)).isEqualTo("search-tracking.completed");
            @SuppressWarnings("unchecked")
            Map<String, Object> body = JsonMapper.builder().build().readValue(record.value(), Map.class);
            assertThat(body).containsEntry("event", "search-tracking.completed")
                    .containsEntry("projectId", event.projectId())
                    .containsEntry("data", Map.of("runId", "run-1", "finalStatus", "completed"));
            awaitMarkedSent(event.eventId());
        } finally {
            relay.stop();
        }
    }

    @Test
    void committedOutboxInsertWakesTheServiceAndRolledBackOneDoesNot() {
        awaitListening();
        assertThat(wakeups.channel()).isEqualTo("wake.platform_test");
        List<String> seen = new CopyOnWriteArrayList<>();
        Disposable subscription = wakeups.of("outbox").subscribe(seen::add);
        try {
            tx().transactional(writer.append(topic(), "k", UUID.randomUUID(), "test.event", Map.of("n", 3))
                    .then(Mono.error(new IllegalStateException("rolled back")))).onErrorResume(e -> Mono.empty()).block();
            sleep(500);
            assertThat(seen).isEmpty();

            tx().transactional(writer.append(topic(), "k", UUID.randomUUID(), "test.event", Map.of("n", 4))
                    .then(writer.append(topic(), "k", UUID.randomUUID(), "test.event", Map.of("n", 5)))).block();
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (seen.isEmpty() && System.nanoTime() < deadline) {
                sleep(10);
            }
            sleep(300);
            // one transaction, one wake-up (PostgreSQL folds a transaction's equal notifications)
            assertThat(seen).containsExactly("outbox");
        } finally {
            subscription.dispose();
        }
    }

    @Test
    void committedRowIsPublishedAtOnceNotAtTheNextPoll() {
        awaitListening();
        OutboxRelay relay = newRelay(Duration.ofMinutes(10), Duration.ofMinutes(10));
        relay.start();
        try {
            // the start-up run has passed: the next poll is ten minutes away
            sleep(500);
            String topic = topic();
            UUID eventId = UUID.randomUUID();
            tx().transactional(writer.append(topic, "k", eventId, "test.event", Map.of("n", 6))).block();
            List<ConsumerRecord<String, String>> records = consume(topic, 1, Duration.ofSeconds(20));
            assertThat(records).hasSize(1);
            assertThat(header(records.get(0), Topics.EVENT_ID_HEADER)).isEqualTo(eventId.toString());
            awaitMarkedSent(eventId);
        } finally {
            relay.stop();
        }
    }

    @Test
    void relayStoppedBetweenSendAndMarkPublishesAgainAndConsumerSeesEventOnce() {
        String topic = topic();
        UUID eventId = UUID.randomUUID();
        tx().transactional(writer.append(topic, "k", eventId, "test.event", Map.of("n", 2))).block();

        OutboxRelay crashing = newRelay();
        crashing.afterSend(() -> Mono.error(new IllegalStateException("process killed after send, before mark")));
        try {
            crashing.relayOnce().onErrorResume(IllegalStateException.class, e -> Mono.just(-1)).block();
        } finally {
            crashing.stop();
        }
        assertThat(count("SELECT count(*) FROM outbox WHERE sent_at IS NULL AND event_id = '" + eventId + "'")).isOne();

        OutboxRelay restarted = newRelay();
        try {
            assertThat(restarted.relayOnce().block()).isPositive();
        } finally {
            restarted.stop();
        }
        List<ConsumerRecord<String, String>> records = consume(topic, 2, Duration.ofSeconds(20));
        assertThat(records).hasSize(2);
        assertThat(records).allSatisfy(r -> assertThat(header(r, Topics.EVENT_ID_HEADER)).isEqualTo(eventId.toString()));

        String consumer = "consumer-" + UUID.randomUUID();
        List<Boolean> applied = new ArrayList<>();
        for (ConsumerRecord<String, String> record : records) {
            UUID id = UUID.fromString(header(record, Topics.EVENT_ID_HEADER));
            applied.add(tx().transactional(processedEvents.claim(consumer, id)).block());
        }
        assertThat(applied).containsExactly(true, false);
        assertThat(count("SELECT count(*) FROM outbox WHERE sent_at IS NULL AND event_id = '" + eventId + "'")).isZero();
    }

    @Test
    void claimRolledBackWithItsTransactionCanBeClaimedAgain() {
        UUID eventId = UUID.randomUUID();
        tx().transactional(processedEvents.claim("c", eventId).then(Mono.error(new IllegalStateException("apply failed"))))
                .onErrorResume(IllegalStateException.class, e -> Mono.empty()).block();
        assertThat(tx().transactional(processedEvents.claim("c", eventId)).block()).isTrue();
        assertThat(tx().transactional(processedEvents.claim("c", eventId)).block()).isFalse();
    }

    private void awaitMarkedSent(UUID eventId) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            if (count("SELECT count(*) FROM outbox WHERE sent_at IS NOT NULL AND event_id = '" + eventId + "'") == 1) {
                return;
            }
            sleep(50);
        }
        throw new AssertionError("outbox row " + eventId + " was not marked sent");
    }

    private void awaitListening() {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!wakeups.listening()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no LISTEN connection within 10 s");
            }
            sleep(20);
        }
    }

    private long count(String sql) {
        return db.sql(sql).map(row -> row.get(0, Long.class)).one().block();
    }

    private static String header(ConsumerRecord<?, ?> record, String name) {
        return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    private static List<ConsumerRecord<String, String>> consume(String topic, int atLeast, Duration within) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfrastructure.kafkaBootstrapServers());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "test-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        List<ConsumerRecord<String, String>> out = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props)) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + within.toNanos();
            while (System.nanoTime() < deadline && out.size() < atLeast) {
                consumer.poll(Duration.ofMillis(200)).forEach(out::add);
            }
            if (out.size() >= atLeast) {
                // give a duplicate the chance to show up
                consumer.poll(Duration.ofMillis(500)).forEach(out::add);
            }
        }
        return out;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
