package dev.visibility.platform.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import dev.visibility.platform.testapp.TestApplication;
import dev.visibility.platform.testing.TestKafka;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.PositiveOrZero;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.dao.DataAccessResourceFailureException;
import reactor.core.publisher.Mono;

/**
 * The platform's {@link TopicConsumer} against the real broker and database: a poison record goes
 * to {@code <topic>.DLT} at once with its reason; a transient failure is retried until it passes
 * and is never dead-lettered; an idempotent consumer applies an eventId once.
 */
@SpringBootTest(classes = {TestApplication.class, TopicConsumerIntegrationTest.Consumers.class},
        properties = {"suite.consumer.transient-max-interval=1s", "suite.consumer.unexpected-retries=1"})
class TopicConsumerIntegrationTest {

    static final String TOPIC = "platform.consumer-test";
    static final String IDEMPOTENT_TOPIC = "platform.consumer-test.idempotent";
    static final String BATCH_TOPIC = "platform.consumer-test.batch";
    static final String IDEMPOTENT_BATCH_TOPIC = "platform.consumer-test.batch-idempotent";
    static final Duration WITHIN = Duration.ofSeconds(60);

    /** A record of the test topics. */
    record Probe(UUID eventId, @NotBlank String name, @PositiveOrZero int count) implements ConsumedRecord {

        @Override
        public void validate() {
            if (name.startsWith("reject")) {
                throw new PoisonRecord("name must not start with reject");
            }
        }
    }

    /** What the handlers saw, and how often a flaky name still fails. */
    static final List<Probe> HANDLED = new CopyOnWriteArrayList<>();
    static final Map<String, AtomicInteger> FAILURES_LEFT = new ConcurrentHashMap<>();
    static final Map<String, AtomicInteger> ATTEMPTS = new ConcurrentHashMap<>();
    /** The traceparent (or "null") the traced batch handler got with each probe name. */
    static final Map<String, String> TRACES = new ConcurrentHashMap<>();
    /** The size of every batch a batch handler was given. */
    static final List<Integer> BATCH_SIZES = new CopyOnWriteArrayList<>();

    @TestConfiguration(proxyBeanMethods = false)
    static class Consumers {

        @Bean
        TopicConsumer<Probe> probes(dev.visibility.platform.tracing.TraceContexts traces) {
            // after the work, the trace context as an outbox append would capture it, on another thread
            // than the listener's (where the record's observation is not current): issue 23
            return TopicConsumer.of(TOPIC, Probe.class, probe -> handle(probe)
                    .then(Mono.delay(Duration.ofMillis(1)))
                    .flatMap(tick -> traces.capture("probe.after"))
                    .doOnNext(traceparent -> TRACES.put(probe.name(), traceparent))
                    .then());
        }

        @Bean
        TopicConsumer<Probe> idempotentProbes() {
            return TopicConsumer.of(IDEMPOTENT_TOPIC, Probe.class, Consumers::handle).idempotent("platform-test.probes");
        }

        @Bean
        TopicConsumer<Probe> batchProbes() {
            return TopicConsumer.batch(BATCH_TOPIC, Probe.class, Consumers::handleAll);
        }

        @Bean
        TopicConsumer<Probe> idempotentBatchProbes() {
            // traced: the handler also gets each record's traceparent header (issue 23)
            return TopicConsumer.tracedBatch(IDEMPOTENT_BATCH_TOPIC, Probe.class, traced -> {
                        traced.forEach(one -> TRACES.put(one.record().name(), String.valueOf(one.traceparent())));
                        return handleAll(traced.stream().map(Traced::record).toList());
                    })
                    .idempotent("platform-test.batch-probes");
        }

        /** Like {@link #handle}, for a whole batch: one failing name fails the batch. */
        private static Mono<Void> handleAll(List<Probe> probes) {
            return Mono.fromRunnable(() -> {
                BATCH_SIZES.add(probes.size());
                for (Probe probe : probes) {
                    ATTEMPTS.computeIfAbsent(probe.name(), n -> new AtomicInteger()).incrementAndGet();
                }
                for (Probe probe : probes) {
                    AtomicInteger left = FAILURES_LEFT.get(probe.name());
                    if (left != null && left.getAndDecrement() > 0) {
                        throw new DataAccessResourceFailureException("database unavailable (simulated)");
                    }
                    if (probe.name().startsWith("bug")) {
                        throw new IllegalStateException("a bug (simulated)");
                    }
                    if (probe.name().startsWith("contradicts")) {
                        throw new PoisonRecord("contradicts what is stored (simulated)", probe);
                    }
                }
                HANDLED.addAll(probes);
            });
        }

        private static Mono<Void> handle(Probe probe) {
            return Mono.fromRunnable(() -> {
                ATTEMPTS.computeIfAbsent(probe.name(), n -> new AtomicInteger()).incrementAndGet();
                AtomicInteger left = FAILURES_LEFT.get(probe.name());
                if (left != null && left.getAndDecrement() > 0) {
                    throw new DataAccessResourceFailureException("database unavailable (simulated)");
                }
                if (probe.name().startsWith("bug")) {
                    throw new IllegalStateException("a bug (simulated)");
                }
                HANDLED.add(probe);
            });
        }
    }

    @Autowired
    TopicConsumers consumers;

    @Test
    void poisonRecordsGoToTheDeadLetterTopicAtOnceWithTheirReasonAndThePartitionMovesOn() {
        String key = UUID.randomUUID().toString();
        String good = "good-" + key;
        List<String> poison = List.of(
                "not json",
                json(UUID.randomUUID(), "", 1),
                json(UUID.randomUUID(), "reject-" + key, 1),
                "{\"eventId\": \"not a uuid\", \"name\": \"x\", \"count\": 1}",
                "{\"eventId\": \"" + UUID.randomUUID() + "\", \"name\": \"x\", \"count\": -1}",
                "[1, 2]",
                "{\"eventId\": \"" + UUID.randomUUID() + "\", \"name\": \"x\"}",
                "{\"schemaVersion\": 2, \"eventId\": \"" + UUID.randomUUID() + "\", \"name\": \"x\", \"count\": 1}");
        List<String> published = new java.util.ArrayList<>(poison);
        published.add(json(UUID.randomUUID(), good, 1));
        TestKafka.publish(TOPIC, key, published);

        List<ConsumerRecord<String, String>> dead = TestKafka.awaitRecords(DeadLetters.topic(TOPIC),
                r -> key.equals(r.key()), poison.size(), WITHIN);
        // unchanged, in order; the reason names the member and the rule, never the value
        assertThat(dead).extracting(ConsumerRecord::value).containsExactlyElementsOf(poison);
        assertThat(dead).extracting(TopicConsumerIntegrationTest::reason).containsExactly(
                "poison: not JSON",
                "poison: name must not be blank",
                "poison: name must not start with reject",
                "poison: does not match the schema of " + TOPIC + " (/eventId format)",
                "poison: does not match the schema of " + TOPIC + " (/count minimum)",
                "poison: not a JSON object",
                "poison: does not match the schema of " + TOPIC + " (/count required)",
                "poison: unknown schemaVersion of " + TOPIC + " (this consumer reads the versions its schema lists)");
        await().atMost(WITHIN).until(() -> handledNames().contains(good));
    }

    @Test
    void aTransientFailureIsRetriedUntilItPassesAndNeverDeadLettered() {
        String key = UUID.randomUUID().toString();
        String flaky = "flaky-" + key;
        FAILURES_LEFT.put(flaky, new AtomicInteger(4));
        TestKafka.publish(TOPIC, key, json(UUID.randomUUID(), flaky, 1));

        await().atMost(WITHIN).until(() -> handledNames().contains(flaky));
        assertThat(ATTEMPTS.get(flaky)).hasValue(5);

        // a poison sentinel after it, on the same partition: once it is dead-lettered, anything
        // dead-lettered before it would be there too
        String sentinel = "reject-sentinel-" + key;
        String sentinelJson = json(UUID.randomUUID(), sentinel, 1);
        TestKafka.publish(TOPIC, key, sentinelJson);
        List<ConsumerRecord<String, String>> dead = TestKafka.awaitRecords(DeadLetters.topic(TOPIC),
                r -> key.equals(r.key()), 1, WITHIN);
        assertThat(dead).extracting(ConsumerRecord::value).containsExactly(sentinelJson);
        assertThat(handledNames()).containsOnlyOnce(flaky);
    }

    @Test
    void anUnexpectedFailureIsRetriedAFewTimesThenDeadLettered() {
        String key = UUID.randomUUID().toString();
        String bug = "bug-" + key;
        String next = "next-" + key;
        TestKafka.publish(TOPIC, key, json(UUID.randomUUID(), bug, 1), json(UUID.randomUUID(), next, 1));

        List<ConsumerRecord<String, String>> dead = TestKafka.awaitRecords(DeadLetters.topic(TOPIC),
                r -> key.equals(r.key()), 1, WITHIN);
        assertThat(dead).extracting(TopicConsumerIntegrationTest::reason)
                .containsExactly("failed repeatedly: java.lang.IllegalStateException");
        await().atMost(WITHIN).until(() -> handledNames().contains(next));
        // the first attempt and one retry (suite.consumer.unexpected-retries=1)
        assertThat(ATTEMPTS.get(bug)).hasValue(2);
    }

    @Test
    void anIdempotentConsumerAppliesAnEventIdOnceAndRetriesTheClaimWithTheWork() {
        String key = UUID.randomUUID().toString();
        UUID eventId = UUID.randomUUID();
        String once = "once-" + key;
        String after = "after-" + key;
        // the first attempt fails after its claim: the claim rolls back with it, so the retry applies
        FAILURES_LEFT.put(once, new AtomicInteger(1));
        TestKafka.publish(IDEMPOTENT_TOPIC, key, json(eventId, once, 1), json(eventId, once, 1),
                json(UUID.randomUUID(), after, 1));

        await().atMost(WITHIN).until(() -> handledNames().contains(after));
        assertThat(handledNames()).containsOnlyOnce(once);
        assertThat(ATTEMPTS.get(once)).hasValue(2);
    }

    @Test
    void aBatchConsumerGetsThePollsValidRecordsInOneCallAndDeadLettersThePoisonOnesAfterIt() {
        String key = UUID.randomUUID().toString();
        List<String> names = java.util.stream.IntStream.range(0, 50).mapToObj(i -> "batch-" + i + "-" + key).toList();
        String poison = json(UUID.randomUUID(), "reject-" + key, 1);
        List<String> published = new java.util.ArrayList<>();
        names.subList(0, 25).forEach(name -> published.add(json(UUID.randomUUID(), name, 1)));
        published.add(poison);
        names.subList(25, 50).forEach(name -> published.add(json(UUID.randomUUID(), name, 1)));
        TestKafka.publish(BATCH_TOPIC, key, published);

        List<ConsumerRecord<String, String>> dead = TestKafka.awaitRecords(DeadLetters.topic(BATCH_TOPIC),
                r -> key.equals(r.key()), 1, WITHIN);
        assertThat(dead).extracting(ConsumerRecord::value).containsExactly(poison);
        assertThat(dead).extracting(TopicConsumerIntegrationTest::reason)
                .containsExactly("poison: name must not start with reject");
        await().atMost(WITHIN).until(() -> handledNames().containsAll(names));
        // in the topic's order, each once
        assertThat(handledNames().stream().filter(n -> n.endsWith(key)).toList()).containsExactlyElementsOf(names);
        assertThat(BATCH_SIZES).anySatisfy(size -> assertThat(size).isGreaterThan(1));
    }

    @Test
    void aRecordTheBatchHandlerNamesAsPoisonIsDeadLetteredAloneAndTheRestOfItsBatchApplies() {
        String key = UUID.randomUUID().toString();
        List<String> names = java.util.stream.IntStream.range(0, 20).mapToObj(i -> "kept-" + i + "-" + key).toList();
        String contradicting = json(UUID.randomUUID(), "contradicts-" + key, 1);
        List<String> published = new java.util.ArrayList<>();
        names.subList(0, 10).forEach(name -> published.add(json(UUID.randomUUID(), name, 1)));
        published.add(contradicting);
        names.subList(10, 20).forEach(name -> published.add(json(UUID.randomUUID(), name, 1)));
        TestKafka.publish(IDEMPOTENT_BATCH_TOPIC, key, published);

        List<ConsumerRecord<String, String>> dead = TestKafka.awaitRecords(DeadLetters.topic(IDEMPOTENT_BATCH_TOPIC),
                r -> key.equals(r.key()), 1, WITHIN);
        assertThat(dead).extracting(ConsumerRecord::value).containsExactly(contradicting);
        assertThat(dead).extracting(TopicConsumerIntegrationTest::reason)
                .containsExactly("poison: contradicts what is stored (simulated)");
        await().atMost(WITHIN).until(() -> handledNames().containsAll(names));
        assertThat(handledNames().stream().filter(n -> n.endsWith(key)).toList()).containsExactlyElementsOf(names);
        assertThat(handledNames()).doesNotContain("contradicts-" + key);
    }

    @Test
    void aBatchWithATransientFailureIsRetriedWholeUntilItPassesAndNothingIsDeadLettered() {
        String key = UUID.randomUUID().toString();
        String flaky = "flaky-" + key;
        String other = "other-" + key;
        FAILURES_LEFT.put(flaky, new AtomicInteger(3));
        TestKafka.publish(BATCH_TOPIC, key, json(UUID.randomUUID(), other, 1), json(UUID.randomUUID(), flaky, 1));

        await().atMost(WITHIN).until(() -> handledNames().contains(flaky));
        assertThat(ATTEMPTS.get(flaky)).hasValue(4);
        String sentinel = json(UUID.randomUUID(), "reject-sentinel-" + key, 1);
        TestKafka.publish(BATCH_TOPIC, key, sentinel);
        List<ConsumerRecord<String, String>> dead = TestKafka.awaitRecords(DeadLetters.topic(BATCH_TOPIC),
                r -> key.equals(r.key()), 1, WITHIN);
        assertThat(dead).extracting(ConsumerRecord::value).containsExactly(sentinel);
        assertThat(handledNames()).containsOnlyOnce(flaky).containsOnlyOnce(other);
    }

    @Test
    void aBatchThatFailsUnexpectedlyIsDeadLetteredAfterItsRetriesAndThePartitionMovesOn() {
        String key = UUID.randomUUID().toString();
        String bug = "bug-" + key;
        String next = "next-" + key;
        String bugJson = json(UUID.randomUUID(), bug, 1);
        TestKafka.publish(BATCH_TOPIC, key, bugJson);
        List<ConsumerRecord<String, String>> dead = TestKafka.awaitRecords(DeadLetters.topic(BATCH_TOPIC),
                r -> key.equals(r.key()), 1, WITHIN);
        assertThat(dead).extracting(ConsumerRecord::value).containsExactly(bugJson);
        assertThat(dead).extracting(TopicConsumerIntegrationTest::reason)
                .containsExactly("failed repeatedly: java.lang.IllegalStateException");
        assertThat(ATTEMPTS.get(bug)).hasValue(2);

        TestKafka.publish(BATCH_TOPIC, key, json(UUID.randomUUID(), next, 1));
        await().atMost(WITHIN).until(() -> handledNames().contains(next));
    }

    @Test
    void anIdempotentBatchThatKeepsFailingIsAppliedOneRecordAtATimeAndOnlyTheFailingRecordIsDeadLettered() {
        String key = UUID.randomUUID().toString();
        String before = "before-" + key;
        String bug = "bug-" + key;
        String after = "after-" + key;
        String bugJson = json(UUID.randomUUID(), bug, 1);
        TestKafka.publish(IDEMPOTENT_BATCH_TOPIC, key, json(UUID.randomUUID(), before, 1), bugJson,
                json(UUID.randomUUID(), after, 1));

        List<ConsumerRecord<String, String>> dead = TestKafka.awaitRecords(DeadLetters.topic(IDEMPOTENT_BATCH_TOPIC),
                r -> key.equals(r.key()), 1, WITHIN);
        assertThat(dead).extracting(ConsumerRecord::value).containsExactly(bugJson);
        assertThat(dead).extracting(TopicConsumerIntegrationTest::reason)
                .containsExactly("failed repeatedly: java.lang.IllegalStateException");
        await().atMost(WITHIN).until(() -> handledNames().containsAll(List.of(before, after)));
        // the records around it applied once each, whichever polls the three came in
        assertThat(handledNames()).containsOnlyOnce(before, after).doesNotContain(bug);
    }

    @Test
    void anIdempotentBatchConsumerAppliesEachEventIdOnceAcrossBatchesAndWithinOne() {
        String key = UUID.randomUUID().toString();
        UUID eventId = UUID.randomUUID();
        String once = "once-" + key;
        String first = "first-" + key;
        String after = "after-" + key;
        // the first attempt fails after the claims: they roll back with it
        FAILURES_LEFT.put(first, new AtomicInteger(1));
        TestKafka.publish(IDEMPOTENT_BATCH_TOPIC, key, json(UUID.randomUUID(), first, 1), json(eventId, once, 1),
                json(eventId, once, 1));
        await().atMost(WITHIN).until(() -> handledNames().contains(once));
        TestKafka.publish(IDEMPOTENT_BATCH_TOPIC, key, json(eventId, once, 1), json(UUID.randomUUID(), after, 1));

        await().atMost(WITHIN).until(() -> handledNames().contains(after));
        assertThat(handledNames()).containsOnlyOnce(once).containsOnlyOnce(first);
    }

    @Test
    void aTopicWithoutAJsonSchemaCannotBeConsumed() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new TopicSchemas().of("platform.no-such-topic"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("docs/events/platform.no-such-topic.schema.json");
    }

    @Test
    void aRecordHandlersChainRunsInTheRecordsTraceOnEveryThread() {
        String key = UUID.randomUUID().toString();
        String traceId = "5bf92f3577b34da6a3ce929d0e0e4736";
        TestKafka.publish(TOPIC, key, List.of(json(UUID.randomUUID(), "in-trace-" + key, 1)),
                Map.of("traceparent", "00-" + traceId + "-00f067aa0ba902b7-01"));
        await().atMost(WITHIN).until(() -> TRACES.containsKey("in-trace-" + key));
        assertThat(dev.visibility.platform.tracing.TraceContexts.traceId(TRACES.get("in-trace-" + key)))
                .isEqualTo(traceId);
    }

    @Test
    void aTracedBatchHandlerGetsEachRecordsTraceparentHeader() {
        String key = UUID.randomUUID().toString();
        String traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        TestKafka.publish(IDEMPOTENT_BATCH_TOPIC, key, List.of(json(UUID.randomUUID(), "traced-" + key, 1)),
                Map.of("traceparent", traceparent));
        TestKafka.publish(IDEMPOTENT_BATCH_TOPIC, key, List.of(json(UUID.randomUUID(), "untraced-" + key, 1)));
        TestKafka.publish(IDEMPOTENT_BATCH_TOPIC, key, List.of(json(UUID.randomUUID(), "garbled-" + key, 1)),
                Map.of("traceparent", "not-a-traceparent"));
        await().atMost(WITHIN).until(() -> handledNames().containsAll(
                List.of("traced-" + key, "untraced-" + key, "garbled-" + key)));
        assertThat(TRACES).containsEntry("traced-" + key, traceparent)
                .containsEntry("untraced-" + key, "null")
                .containsEntry("garbled-" + key, "null");
    }

    @Test
    void everyConsumerHasItsDeadLetterTopicByTheOneRule() {
        assertThat(consumers.consumers()).extracting(TopicConsumer::deadLetterTopic)
                .containsExactlyInAnyOrder(TOPIC + ".DLT", IDEMPOTENT_TOPIC + ".DLT", BATCH_TOPIC + ".DLT",
                        IDEMPOTENT_BATCH_TOPIC + ".DLT");
    }

    private static List<String> handledNames() {
        return HANDLED.stream().map(Probe::name).toList();
    }

    private static String reason(ConsumerRecord<String, String> record) {
        Header header = record.headers().lastHeader(DeadLetters.REASON_HEADER);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static String json(UUID eventId, String name, int count) {
        return "{\"eventId\": \"" + eventId + "\", \"name\": \"" + name + "\", \"count\": " + count + "}";
    }
}
