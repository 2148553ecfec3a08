package dev.visibility.platform.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import dev.visibility.platform.events.Topics;
import dev.visibility.platform.testing.TestKafka;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;

/**
 * Issue 22, outbox: a row the broker refuses for good is parked in {@code outbox_dead_letters}
 * with its reason (logged, counted) and the rows behind it flow; a batch in which some rows fail
 * marks the acknowledged ones sent, so only the others are sent again; one key's rows are published
 * in order by several relay replicas at once. Real PostgreSQL, real Kafka broker.
 */
class OutboxFaultsIntegrationTest extends OutboxTestSupport {

    private static final Duration WITHIN = Duration.ofSeconds(60);

    private OutboxRelay newRelay(int batchSize) {
        return newRelay(Duration.ofMillis(20), Duration.ofMillis(20), batchSize);
    }

    @Test
    void poisonRowsAreParkedWithTheirReasonAndTheRowsAroundThemAreSentOnce() {
        String topic = "outbox-poison-" + UUID.randomUUID();
        UUID before = UUID.randomUUID();
        UUID tooLarge = UUID.randomUUID();
        UUID badTopic = UUID.randomUUID();
        UUID after = UUID.randomUUID();
        append(topic, "k", before, Map.of("n", 1));
        // over the producer's max.request.size (1 MiB): the broker can never take it
        append(topic, "k", tooLarge, Map.of("blob", "x".repeat(2 * 1024 * 1024)));
        append("not a valid topic!", "k", badTopic, Map.of("n", 2));
        append(topic, "k", after, Map.of("n", 3));

        OutboxRelay relay = newRelay(100);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        relay.countDeadLettersIn(meters);
        try {
            // one round: two published, two parked; no retry of the acknowledged ones needed
            assertThat(relay.relayOnce().block()).isEqualTo(4);
            assertThat(count("SELECT count(*) FROM outbox WHERE event_id IN ('" + tooLarge + "','" + badTopic + "')"))
                    .isZero();
            assertThat(reason(tooLarge)).startsWith("RecordTooLargeException");
            assertThat(reason(badTopic)).startsWith("InvalidTopicException");
            assertThat(count("SELECT count(*) FROM outbox WHERE sent_at IS NOT NULL AND event_id IN ('"
                    + before + "','" + after + "')")).isEqualTo(2);
            assertThat(meters.get("outbox.dead.letters").tag("topic", topic).counter().count()).isEqualTo(1.0);
            assertThat(meters.get("outbox.dead.letters").tag("topic", "not a valid topic!").counter().count())
                    .isEqualTo(1.0);

            UUID sentinel = UUID.randomUUID();
            append(topic, "k", sentinel, Map.of("sentinel", true));
            assertThat(relay.relayOnce().block()).isEqualTo(1);
            List<String> ids = TestKafka.recordsBefore(topic, r -> true,
                    r -> sentinel.toString().equals(eventId(r)), WITHIN).stream().map(OutboxFaultsIntegrationTest::eventId)
                    .toList();
            // each acknowledged row exactly once, in order; the parked one never
            assertThat(ids).containsExactly(before.toString(), after.toString());
        } finally {
            relay.stop();
        }
    }

    @Test
    void oneKeysRowsArePublishedInOrderByTwoRelayReplicas() {
        String topic = "outbox-order-" + UUID.randomUUID();
        int keys = 4;
        int perKey = 150;
        OutboxRelay first = newRelay(5);
        OutboxRelay second = newRelay(5);
        first.start();
        second.start();
        try {
            // rows are committed while both replicas relay, interleaving the keys, a few per transaction
            Flux.range(0, perKey * keys / 3).concatMap(t -> {
                TransactionalOperator tx = tx();
                return tx.transactional(Flux.range(t * 3, 3)
                        .concatMap(n -> writer.append(topic, "key-" + (n % keys), UUID.randomUUID(), "test.event",
                                Map.of("key", "key-" + (n % keys), "seq", n / keys)))
                        .then());
            }).blockLast(WITHIN);
            await("every row marked sent").atMost(WITHIN).until(() -> count(
                    "SELECT count(*) FROM outbox WHERE sent_at IS NULL AND topic = '" + topic + "'") == 0);
        } finally {
            first.stop();
            second.stop();
        }
        List<ConsumerRecord<String, String>> records = TestKafka.awaitRecords(topic, r -> true, keys * perKey, WITHIN);
        Map<String, List<Integer>> sequences = new HashMap<>();
        Set<String> seen = new HashSet<>();
        for (ConsumerRecord<String, String> record : records) {
            if (seen.add(eventId(record))) {
                int seq = Integer.parseInt(record.value().replaceAll(".*\"seq\":(\\d+).*", "$1"));
                sequences.computeIfAbsent(record.key(), k -> new ArrayList<>()).add(seq);
            }
        }
        assertThat(sequences).hasSize(keys);
        for (Map.Entry<String, List<Integer>> key : sequences.entrySet()) {
            assertThat(key.getValue()).as("order of " + key.getKey()).isSorted().hasSize(perKey);
        }
    }

    private String reason(UUID eventId) {
        return db.sql("SELECT reason FROM outbox_dead_letters WHERE event_id = :id").bind("id", eventId)
                .map(row -> row.get(0, String.class)).one().block();
    }

    private static String eventId(ConsumerRecord<?, ?> record) {
        return header(record, Topics.EVENT_ID_HEADER);
    }
}
