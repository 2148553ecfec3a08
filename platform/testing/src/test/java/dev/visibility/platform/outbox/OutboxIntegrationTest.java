package dev.visibility.platform.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.visibility.platform.consumer.Traced;
import dev.visibility.platform.db.DatabaseWakeups;
import dev.visibility.platform.events.EventName;
import dev.visibility.platform.events.PublicEvent;
import dev.visibility.platform.events.SearchTrackingCompleted;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.testing.TestKafka;
import dev.visibility.platform.tracing.TraceContexts;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * DESIGN.md Kafka: a service that changes its database and publishes does so through a
 * transactional outbox; producers are idempotent; consumers are idempotent by eventId.
 * Real PostgreSQL and a real Kafka broker.
 */
class OutboxIntegrationTest extends OutboxTestSupport {

    private static final Duration WITHIN = Duration.ofSeconds(20);

    @Autowired
    ProcessedEvents processedEvents;

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
            // a sentinel committed after the rolled-back work, to the same partition: once it is on
            // the topic, anything the rolled-back transaction had published would be ahead of it
            UUID sentinel = appendSentinel(topic, "k");
            relay.relayOnce().block();
            assertThat(recordsBefore(topic, sentinel)).isEmpty();
        } finally {
            relay.stop();
        }
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
            awaitMarkedSent(event.eventId());
            // published once: a sentinel appended after it arrives with nothing but the event before it
            UUID sentinel = appendSentinel(topic, event.projectId());
            List<ConsumerRecord<String, String>> records = recordsBefore(topic, sentinel);
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
        } finally {
            relay.stop();
        }
    }

    @Test
    void appendAllStoresTheEventsInTheirOrderWithTheExactBytesOfEachAndTheTraceOfItsRecord() {
        String project = UUID.randomUUID().toString();
        // texts an array literal must escape: quotes, backslashes, braces, commas, non-ASCII
        List<PublicEvent<?>> events = List.of(
                PublicEvent.of(EventName.SEARCH_TRACKING_COMPLETED, project, "acct-1",
                        new SearchTrackingCompleted("run \"1\", {a,b} \\ é ✓", "completed")),
                PublicEvent.of(EventName.SEARCH_TRACKING_COMPLETED, project, "acct-1", new SearchTrackingCompleted("run-2", "failed")),
                PublicEvent.of(EventName.SEARCH_TRACKING_COMPLETED, project, "acct-1", new SearchTrackingCompleted("", "completed")));
        String trace = "00-" + UUID.randomUUID().toString().replace("-", "") + "-00f067aa0ba902b7-01";
        tx().transactional(writer.appendAll(List.of(new Traced<>(events.get(0), trace), new Traced<>(events.get(1), null),
                new Traced<>(events.get(2), trace)))).block();

        List<Map<String, Object>> rows = db.sql("""
                SELECT event_id, topic, message_key, event_type, payload, traceparent FROM outbox
                WHERE message_key = :key ORDER BY id""").bind("key", project)
                .fetch().all().collectList().block();
        assertThat(rows).extracting(row -> row.get("event_id")).containsExactly(events.stream().map(PublicEvent::eventId).toArray());
        assertThat(rows).extracting(row -> row.get("topic")).containsOnly(Topics.PUBLIC_EVENTS);
        assertThat(rows).extracting(row -> row.get("event_type")).containsOnly("search-tracking.completed");
        JsonMapper json = JsonMapper.builder().build();
        for (int i = 0; i < events.size(); i++) {
            assertThat(json.readTree((String) rows.get(i).get("payload"))).isEqualTo(json.valueToTree(events.get(i)));
        }
        assertThat(rows.get(0).get("payload").toString()).contains("run \\\"1\\\", {a,b} \\\\ é ✓");
        // with tracing on, the row of a record with a traceparent is in that trace; without one, a trace of its own
        assertThat(TraceContexts.traceId((String) rows.get(0).get("traceparent"))).isEqualTo(trace.substring(3, 35));
        assertThat(TraceContexts.traceId((String) rows.get(2).get("traceparent"))).isEqualTo(trace.substring(3, 35));
        assertThat(TraceContexts.traceId((String) rows.get(1).get("traceparent"))).isNotNull().isNotEqualTo(trace.substring(3, 35));
    }

    @Test
    void committedOutboxInsertWakesTheServiceAndRolledBackOneDoesNot() {
        awaitListening();
        assertThat(wakeups.channel()).isEqualTo("wake.platform_test");
        // the outbox's wake-ups and sentinels on the same channel: PostgreSQL delivers a channel's
        // notifications in commit order, so once a sentinel committed after some work has arrived,
        // every wake-up of that work has arrived too
        List<String> seen = new CopyOnWriteArrayList<>();
        Disposable subscription = Flux.merge(wakeups.of("outbox"), wakeups.of("sentinel-1"), wakeups.of("sentinel-2"))
                .subscribe(seen::add);
        try {
            tx().transactional(writer.append(topic(), "k", UUID.randomUUID(), "test.event", Map.of("n", 3))
                    .then(Mono.error(new IllegalStateException("rolled back")))).onErrorResume(e -> Mono.empty()).block();
            notify("sentinel-1");
            await().atMost(WITHIN).until(() -> seen.contains("sentinel-1"));
            assertThat(seen).containsExactly("sentinel-1");

            tx().transactional(writer.append(topic(), "k", UUID.randomUUID(), "test.event", Map.of("n", 4))
                    .then(writer.append(topic(), "k", UUID.randomUUID(), "test.event", Map.of("n", 5)))).block();
            notify("sentinel-2");
            await().atMost(WITHIN).until(() -> seen.contains("sentinel-2"));
            // one transaction, one wake-up (PostgreSQL folds a transaction's equal notifications)
            assertThat(seen).containsExactly("sentinel-1", "outbox", "sentinel-2");
        } finally {
            subscription.dispose();
        }
    }

    @Test
    void committedRowIsPublishedAtOnceNotAtTheNextPoll() {
        awaitListening();
        assertPublishedAtOnce(writer, wakeups);
    }

    @Test
    void inProcessWakeUpsFollowTheWritersCommitsOnlyAndNeedNoConnectionOfTheirOwn() {
        DatabaseWakeups local = DatabaseWakeups.inProcess();
        OutboxWriter localWriter = new OutboxWriter(db, mapper, traces, local);
        local.start();
        List<String> seen = new CopyOnWriteArrayList<>();
        Disposable subscription = local.of("outbox").subscribe(seen::add);
        try {
            // no LISTEN connection to wait for: workers count on the wake-ups from the start
            assertThat(local.listening()).isTrue();
            assertThat(local.channel()).isNull();

            tx().transactional(localWriter.append(topic(), "k", UUID.randomUUID(), "test.event", Map.of("n", 7))
                    .then(Mono.error(new IllegalStateException("rolled back")))).onErrorResume(e -> Mono.empty()).block();
            assertThat(seen).isEmpty();

            // the transaction's writes, then its commit, then the wake-up: done before the commit's answer
            tx().transactional(localWriter.append(topic(), "k", UUID.randomUUID(), "test.event", Map.of("n", 8))
                    .then(Mono.fromRunnable(() -> assertThat(seen).isEmpty()))).block();
            assertThat(seen).containsOnly("outbox").isNotEmpty();

            // outside a transaction the insert has committed by itself: a wake-up at once
            seen.clear();
            localWriter.append(topic(), "k", UUID.randomUUID(), "test.event", Map.of("n", 9)).block();
            assertThat(seen).containsExactly("outbox");
        } finally {
            subscription.dispose();
            local.stop();
        }
        assertThat(local.isRunning()).isFalse();
    }

    @Test
    void aRelayWokenInProcessPublishesACommittedRowAtOnceNotAtTheNextPoll() {
        DatabaseWakeups local = DatabaseWakeups.inProcess();
        local.start();
        try {
            // the database's notifications go to the context's wake-ups, not to these
            assertPublishedAtOnce(new OutboxWriter(db, mapper, traces, local), local);
        } finally {
            local.stop();
        }
    }

    /**
     * A relay woken by {@code wakeups}, with polls ten minutes apart, publishes a row that {@code writer}
     * commits at once: only a wake-up can. Its start-up run relays a row committed before it starts; once
     * that one is sent, the start-up run is over.
     */
    private void assertPublishedAtOnce(OutboxWriter writer, DatabaseWakeups wakeups) {
        UUID before = UUID.randomUUID();
        tx().transactional(writer.append(topic(), "k", before, "test.event", Map.of("n", 0))).block();
        OutboxRelay relay = OutboxRelay.create(db, transactionManager, kafkaProperties, wakeups,
                relayProperties(Duration.ofMinutes(10), Duration.ofMinutes(10), 100));
        relay.start();
        try {
            awaitMarkedSent(before);
            String topic = topic();
            UUID eventId = UUID.randomUUID();
            tx().transactional(writer.append(topic, "k", eventId, "test.event", Map.of("n", 6))).block();
            List<ConsumerRecord<String, String>> records = TestKafka.awaitRecords(topic, r -> true, 1, WITHIN);
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
        List<ConsumerRecord<String, String>> records;
        try {
            assertThat(restarted.relayOnce().block()).isPositive();
            UUID sentinel = appendSentinel(topic, "k");
            restarted.relayOnce().block();
            records = recordsBefore(topic, sentinel);
        } finally {
            restarted.stop();
        }
        // the send before the crash and the one after the restart; no third
        assertThat(records).hasSize(2);
        assertThat(records).allSatisfy(r -> assertThat(header(r, Topics.EVENT_ID_HEADER)).isEqualTo(eventId.toString()));

        String consumer = "consumer-" + UUID.randomUUID();
        List<Boolean> applied = new ArrayList<>();
        for (ConsumerRecord<String, String> record : records) {
            UUID id = UUID.fromString(header(record, Topics.EVENT_ID_HEADER));
            applied.add(tx().transactional(processedEvents.claim(Claims.processedEvents(consumer), id)).block());
        }
        assertThat(applied).containsExactly(true, false);
        assertThat(count("SELECT count(*) FROM outbox WHERE sent_at IS NULL AND event_id = '" + eventId + "'")).isZero();
    }

    @Test
    void claimRolledBackWithItsTransactionCanBeClaimedAgain() {
        UUID eventId = UUID.randomUUID();
        tx().transactional(processedEvents.claim(Claims.processedEvents("c"), eventId).then(Mono.error(new IllegalStateException("apply failed"))))
                .onErrorResume(IllegalStateException.class, e -> Mono.empty()).block();
        assertThat(tx().transactional(processedEvents.claim(Claims.processedEvents("c"), eventId)).block()).isTrue();
        assertThat(tx().transactional(processedEvents.claim(Claims.processedEvents("c"), eventId)).block()).isFalse();
    }

    @Test
    void aClaimTableAnswersOnlyTheIdsNoEarlierTransactionClaimedAndForgetsARolledBackClaim() {
        db.sql("CREATE TABLE IF NOT EXISTS test_claims (event_id uuid NOT NULL PRIMARY KEY,"
                + " claimed_at timestamptz NOT NULL DEFAULT now())").then().block();
        ClaimTable table = new ClaimTable("test_claims");
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        UUID third = UUID.randomUUID();
        // a repeated id within one list is claimed once
        assertThat(tx().transactional(processedEvents.claimAll(Claims.in(table), List.of(first, second, first))).block())
                .containsExactlyInAnyOrder(first, second);
        tx().transactional(processedEvents.claimAll(Claims.in(table), List.of(third)).then(Mono.error(new IllegalStateException("apply failed"))))
                .onErrorResume(IllegalStateException.class, e -> Mono.empty()).block();
        assertThat(tx().transactional(processedEvents.claimAll(Claims.in(table), List.of(second, third))).block()).containsExactly(third);
        assertThat(tx().transactional(processedEvents.claimAll(Claims.in(table), List.of(first, second, third))).block()).isEmpty();
        // one id at a time (a one-record consumer with a claim table of its own), beside the batch claims
        UUID fourth = UUID.randomUUID();
        assertThat(tx().transactional(processedEvents.claim(Claims.in(table), fourth)).block()).isTrue();
        assertThat(tx().transactional(processedEvents.claim(Claims.in(table), fourth)).block()).isFalse();
        assertThat(tx().transactional(processedEvents.claim(Claims.in(table), first)).block()).isFalse();
        assertThat(tx().transactional(processedEvents.claimAll(Claims.in(table), List.of(fourth))).block()).isEmpty();
        // the claims are the table's own: processed_events holds none of them
        assertThat(count("SELECT count(*) FROM processed_events WHERE event_id IN ('" + first + "', '" + second + "', '"
                + third + "', '" + fourth + "')")).isZero();
    }

    @Test
    void aFirstTryClaimsEveryNewIdAndFailsWholeWhenOneWasClaimedBeforeInProcessedEventsOrAClaimTable() {
        db.sql("CREATE TABLE IF NOT EXISTS test_claims (event_id uuid NOT NULL PRIMARY KEY,"
                + " claimed_at timestamptz NOT NULL DEFAULT now())").then().block();
        for (Claims claims : List.of(Claims.processedEvents("first-try"), Claims.in(new ClaimTable("test_claims")))) {
            UUID first = UUID.randomUUID();
            UUID second = UUID.randomUUID();
            UUID third = UUID.randomUUID();
            // a repeated id within one list is claimed once, and does not count as claimed before
            assertThat(tx().transactional(processedEvents.claimAllNew(claims, List.of(first, second, first))).block())
                    .containsExactlyInAnyOrder(first, second);
            // one of them claimed before: the whole statement fails, and its transaction keeps no claim
            assertThatThrownBy(() -> tx().transactional(processedEvents.claimAllNew(claims, List.of(third, second))).block())
                    .isInstanceOf(ProcessedEvents.ClaimedBefore.class)
                    .hasMessageContaining(claims.table());
            // so that the skipping claim of a new transaction still gets the one that was new
            assertThat(tx().transactional(processedEvents.claimAll(claims, List.of(third, second))).block()).containsExactly(third);
            assertThatThrownBy(() -> tx().transactional(processedEvents.claimAllNew(claims, List.of(third))).block())
                    .isInstanceOf(ProcessedEvents.ClaimedBefore.class);
        }
    }

    @Test
    void aClaimTableIsNamedByALowerCaseIdentifierAndKeptForAPositiveTime() {
        assertThatThrownBy(() -> new ClaimTable("claims; DROP TABLE outbox")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ClaimTable("Claims")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ClaimTable("claims", Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ClaimTable("claims", Duration.ofHours(-1))).isInstanceOf(IllegalArgumentException.class);
    }

    private void awaitMarkedSent(UUID eventId) {
        await("outbox row " + eventId + " marked sent").atMost(WITHIN)
                .until(() -> count("SELECT count(*) FROM outbox WHERE sent_at IS NOT NULL AND event_id = '" + eventId + "'") == 1);
    }

    private void awaitListening() {
        await("a LISTEN connection").atMost(WITHIN).until(wakeups::listening);
    }

    /** Commits a notification with {@code payload} on the wake-up channel of this schema. */
    private void notify(String payload) {
        tx().transactional(db.sql("SELECT pg_notify(:channel, :payload)").bind("channel", wakeups.channel())
                .bind("payload", payload).then()).block();
    }

    /** Appends a sentinel event to the outbox in a transaction of its own; answers its eventId. */
    private UUID appendSentinel(String topic, String key) {
        UUID eventId = UUID.randomUUID();
        tx().transactional(writer.append(topic, key, eventId, "test.sentinel", Map.of("sentinel", true))).block();
        return eventId;
    }

    /** The records of {@code topic} before the sentinel {@code sentinelId} (see {@link TestKafka#recordsBefore}). */
    private static List<ConsumerRecord<String, String>> recordsBefore(String topic, UUID sentinelId) {
        return TestKafka.recordsBefore(topic, r -> true,
                r -> sentinelId.toString().equals(header(r, Topics.EVENT_ID_HEADER)), WITHIN);
    }
}
