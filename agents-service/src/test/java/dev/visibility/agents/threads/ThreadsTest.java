package dev.visibility.agents.threads;

import static dev.visibility.platform.testing.Http.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import dev.visibility.agents.access.AgentsAccess;
import dev.visibility.agents.support.AgentsTest;
import dev.visibility.agents.support.Records;
import dev.visibility.agents.support.Schemas;
import dev.visibility.platform.consumer.DeadLetters;
import dev.visibility.platform.events.AssistantThreadRecorded;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.testing.TestKafka;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * E9 and E10 (spec E9, E10, 2.10, 7.4; DESIGN.md "Outcomes, traffic, agents"): pending handoffs,
 * deleting a thread, and the six reasons of their errors, one test each.
 */
class ThreadsTest extends AgentsTest {

    private final UUID project = UUID.randomUUID();
    private final UUID owner = UUID.randomUUID();

    /** A thread of {@code member}, ingested through agents.threads. */
    private UUID thread(UUID member) {
        UUID thread = UUID.randomUUID();
        AssistantThreadRecorded created = Records.created(project, thread, member);
        Schemas.assertValidEvent(Topics.AGENTS_THREADS, mapper.writeValueAsString(created));
        publishThreads(project, created);
        awaitCount(1, "SELECT count(*) FROM assistant_threads WHERE id = $1", thread);
        return thread;
    }

    private String handoffs(UUID thread) {
        return base(project) + "/agents/assistant/threads/" + thread + "/handoffs";
    }

    private String threadPath(UUID thread) {
        return base(project) + "/agents/assistant/threads/" + thread;
    }

    /** E9: only handoffs that are pending and not expired, with exactly the fields of spec 2.10. */
    @Test
    void handoffsAreThePendingOnesThatHaveNotExpired() {
        UUID thread = thread(owner);
        UUID pending = UUID.randomUUID();
        UUID pastExpiry = UUID.randomUUID();
        UUID expired = UUID.randomUUID();
        UUID accepted = UUID.randomUUID();
        Instant later = Instant.now().plus(Duration.ofHours(6)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        List<AssistantThreadRecorded> records = List.of(Records.offered(project, thread, pending, later),
                Records.offered(project, thread, pastExpiry, Instant.now().minus(Duration.ofMinutes(1))),
                Records.offered(project, thread, expired, later), Records.offered(project, thread, accepted, later),
                Records.handoff(project, thread, AssistantThreadRecorded.HANDOFF_EXPIRED, expired),
                Records.handoff(project, thread, AssistantThreadRecorded.HANDOFF_ACCEPTED, accepted));
        records.forEach(r -> Schemas.assertValidEvent(Topics.AGENTS_THREADS, mapper.writeValueAsString(r)));
        publishThreads(project, records.toArray());
        awaitCount(1, "SELECT count(*) FROM thread_handoffs WHERE id = $1 AND state = 'accepted'", accepted);

        Map<String, Object> body = json(get(handoffs(thread), bearer(project, owner)), 200);
        assertThat(body.keySet()).containsExactlyInAnyOrder("data", "meta");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> data = (List<Map<String, Object>>) body.get("data");
        assertThat(data).hasSize(1);
        assertThat(data.get(0).keySet()).containsExactlyInAnyOrder("agent", "agentKey", "estimateCredits", "expiresAt",
                "handoffId", "instructions");
        assertThat(data.get(0)).containsEntry("handoffId", pending.toString())
                .containsEntry("agent", "Technical SEO specialist").containsEntry("agentKey", "technical-seo")
                .containsEntry("estimateCredits", 40).containsEntry("instructions", "Audit the pricing pages for crawl blocks");
        assertThat(Instant.parse((String) data.get(0).get("expiresAt"))).isEqualTo(later);
    }

    @Test
    void aThreadWithoutPendingHandoffsAnswersAnEmptyList() {
        UUID thread = thread(owner);
        Map<String, Object> body = json(get(handoffs(thread), bearer(project, owner)), 200);
        assertThat(body).containsEntry("data", List.of());
    }

    /** Reason 1 of 6: 400 invalid_thread_id for a thread id that is not an id. */
    @Test
    void reasonInvalidThreadId() {
        for (String bad : List.of("not-a-thread", "123", "0b6f1f5e2a7c4d3b9e8f1a2b3c4d5e6f", "0b6f1f5e-2a7c-4d3b-9e8f-1a2b3c4d5e6")) {
            refusal(get(base(project) + "/agents/assistant/threads/" + bad + "/handoffs", bearer(project, owner)), 400,
                    "invalid_thread_id");
            refusal(delete(base(project) + "/agents/assistant/threads/" + bad, bearer(project, owner)), 400, "invalid_thread_id");
        }
    }

    /** Reason 2 of 6: 403 missing_scope; E9 needs agents.read, E10 agents.run (DESIGN.md "Scopes per route"). */
    @Test
    void reasonMissingScope() {
        UUID thread = thread(owner);
        Set<String> feature = Set.of(AgentsAccess.FEATURE);
        refusal(get(handoffs(thread), bearer(project, owner, Set.of(AgentsAccess.RUN), feature)), 403, "missing_scope");
        refusal(delete(threadPath(thread), bearer(project, owner, Set.of(AgentsAccess.READ), feature)), 403, "missing_scope");
        assertThat(count("SELECT count(*) FROM assistant_threads WHERE id = $1 AND deleted_at IS NULL", thread)).isEqualTo(1);
    }

    /** Reason 3 of 6: 403 agents_not_enabled, a plan without managed agents. */
    @Test
    void reasonAgentsNotEnabled() {
        UUID thread = thread(owner);
        Set<String> scopes = Set.of(AgentsAccess.READ, AgentsAccess.RUN);
        refusal(get(handoffs(thread), bearer(project, owner, scopes, Set.of("agent-picks"))), 403, "agents_not_enabled");
        refusal(delete(threadPath(thread), bearer(project, owner, scopes, Set.of())), 403, "agents_not_enabled");
    }

    /** Reason 4 of 6: 403 not_thread_owner, the key was created by another member (or by nobody known). */
    @Test
    void reasonNotThreadOwner() {
        UUID thread = thread(owner);
        UUID colleague = UUID.randomUUID();
        refusal(get(handoffs(thread), bearer(project, colleague)), 403, "not_thread_owner");
        refusal(delete(threadPath(thread), bearer(project, colleague)), 403, "not_thread_owner");
        refusal(delete(threadPath(thread), bearer(project, null)), 403, "not_thread_owner");
        assertThat(count("SELECT count(*) FROM assistant_threads WHERE id = $1 AND deleted_at IS NULL", thread)).isEqualTo(1);
    }

    /** Reason 5 of 6: 404 thread_not_found, an unknown thread or another project's (spec 5.4). */
    @Test
    void reasonThreadNotFound() {
        refusal(get(handoffs(UUID.randomUUID()), bearer(project, owner)), 404, "thread_not_found");
        refusal(delete(threadPath(UUID.randomUUID()), bearer(project, owner)), 404, "thread_not_found");
        UUID elsewhere = UUID.randomUUID();
        UUID foreign = UUID.randomUUID();
        publishThreads(elsewhere, Records.created(elsewhere, foreign, owner));
        awaitCount(1, "SELECT count(*) FROM assistant_threads WHERE id = $1", foreign);
        refusal(get(handoffs(foreign), bearer(project, owner)), 404, "thread_not_found");
        refusal(delete(threadPath(foreign), bearer(project, owner)), 404, "thread_not_found");
    }

    /** Reason 6 of 6: 404 thread_deleted, on E9 and on a second delete; later records never bring the thread back. */
    @Test
    void reasonThreadDeleted() {
        UUID thread = thread(owner);
        json(delete(threadPath(thread), bearer(project, owner)), 200);
        refusal(get(handoffs(thread), bearer(project, owner)), 404, "thread_deleted");
        refusal(delete(threadPath(thread), bearer(project, owner)), 404, "thread_deleted");

        UUID late = UUID.randomUUID();
        publishThreads(project, Records.created(project, thread, owner),
                Records.offered(project, thread, late, Instant.now().plus(Duration.ofHours(1))));
        awaitCount(1, "SELECT count(*) FROM thread_handoffs WHERE id = $1 AND state = 'cancelled'", late);
        refusal(get(handoffs(thread), bearer(project, owner)), 404, "thread_deleted");
    }

    /**
     * E10: {data: {status: deleted}, meta}; billing (credits used) and audit rows survive the delete;
     * pending handoffs are cancelled; the stop record is published on agents.thread-stops exactly once.
     */
    @Test
    void deleteKeepsBillingAndAuditRowsAndPublishesOneStopRecord() {
        UUID thread = thread(owner);
        UUID handoff = UUID.randomUUID();
        publishThreads(project, Records.credits(project, thread, "3.25"), Records.credits(project, thread, "1.5"),
                Records.offered(project, thread, handoff, Instant.now().plus(Duration.ofHours(1))));
        awaitCount(1, "SELECT count(*) FROM thread_handoffs WHERE id = $1", handoff);
        long audit = count("SELECT count(*) FROM thread_audit WHERE thread_id = $1", thread);
        assertThat(audit).isEqualTo(2); // thread_created, handoff_offered

        String key = bearer(project, owner);
        Map<String, Object> body = json(delete(threadPath(thread), key), 200);
        assertThat(body.keySet()).containsExactlyInAnyOrder("data", "meta");
        assertThat(body).containsEntry("data", Map.of("status", "deleted"));
        @SuppressWarnings("unchecked")
        Map<String, Object> meta = (Map<String, Object>) body.get("meta");
        assertThat(meta.keySet()).containsExactlyInAnyOrder("timestamp", "projectId");
        assertThat(meta).containsEntry("projectId", project.toString());
        refusal(delete(threadPath(thread), key), 404, "thread_deleted");

        // billing: both rows, unchanged; audit: the earlier rows plus the delete, with who did it
        assertThat(count("SELECT count(*) FROM thread_credits WHERE thread_id = $1", thread)).isEqualTo(2);
        BigDecimal credits = db.sql("SELECT sum(credits) FROM thread_credits WHERE thread_id = $1").bind(0, thread)
                .map(row -> row.get(0, BigDecimal.class)).one().block();
        assertThat(credits).isEqualByComparingTo("4.75");
        assertThat(count("SELECT count(*) FROM thread_audit WHERE thread_id = $1", thread)).isEqualTo(audit + 1);
        assertThat(count("SELECT count(*) FROM thread_audit WHERE thread_id = $1 AND action = 'thread_deleted' AND actor = $2",
                thread, owner.toString())).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM thread_handoffs WHERE id = $1 AND state = 'cancelled'", handoff)).isEqualTo(1);
        // credits the assistant reports after the delete are still billed
        publishThreads(project, Records.credits(project, thread, "0.25"));
        awaitCount(3, "SELECT count(*) FROM thread_credits WHERE thread_id = $1", thread);

        // exactly one stop record: one outbox row, and on the topic nothing for this thread before the next delete's record
        assertThat(count("SELECT count(*) FROM outbox WHERE topic = $1 AND payload::jsonb ->> 'threadId' = $2",
                Topics.AGENTS_THREAD_STOPS, thread.toString())).isEqualTo(1);
        UUID next = thread(owner);
        json(delete(threadPath(next), key), 200);
        List<ConsumerRecord<String, String>> stops = TestKafka.awaitRecords(Topics.AGENTS_THREAD_STOPS,
                r -> project.toString().equals(r.key()), 2, WAIT);
        assertThat(stops).hasSize(2);
        assertThat(stops.get(1).value()).contains(next.toString());
        Map<String, Object> stop = JSON.readValue(stops.get(0).value(), Map.class);
        Schemas.assertValidEvent(Topics.AGENTS_THREAD_STOPS, stops.get(0).value());
        assertThat(stop).containsEntry("threadId", thread.toString()).containsEntry("projectId", project.toString())
                .containsEntry("reason", "thread_deleted").containsEntry("requestedBy", owner.toString());
    }

    /** Two deletes at once: one succeeds, the other waits for the row lock and finds the thread deleted; one stop record. */
    @Test
    void concurrentDeletesPublishOneStopRecord() throws Exception {
        UUID thread = thread(owner);
        String key = bearer(project, owner);
        java.util.concurrent.Callable<Integer> deleteOnce = () -> delete(threadPath(thread), key).exchange()
                .returnResult(String.class).getStatus().value();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            List<Integer> statuses = new java.util.ArrayList<>();
            for (var future : pool.invokeAll(List.of(deleteOnce, deleteOnce, deleteOnce, deleteOnce))) {
                statuses.add(future.get());
            }
            assertThat(statuses).containsExactlyInAnyOrder(200, 404, 404, 404);
        } finally {
            pool.shutdownNow();
        }
        assertThat(count("SELECT count(*) FROM outbox WHERE topic = $1 AND payload::jsonb ->> 'threadId' = $2",
                Topics.AGENTS_THREAD_STOPS, thread.toString())).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM thread_audit WHERE thread_id = $1 AND action = 'thread_deleted'", thread))
                .isEqualTo(1);
    }

    /** The consumer is idempotent by eventId: a record delivered twice is billed once. */
    @Test
    void aRecordDeliveredTwiceIsAppliedOnce() {
        UUID thread = thread(owner);
        AssistantThreadRecorded credits = Records.credits(project, thread, "2");
        publishThreads(project, credits, credits, Records.credits(project, thread, "5"));
        awaitCount(2, "SELECT count(*) FROM thread_credits WHERE thread_id = $1", thread);
        assertThat(count("SELECT count(*) FROM processed_events WHERE event_id = $1", credits.eventId())).isEqualTo(1);
    }

    /** Malformed records and records that contradict what is stored go to agents.threads.DLT with their reason. */
    @Test
    void malformedRecordsAreDeadLetteredWithTheirReason() {
        UUID thread = thread(owner);
        String key = "dlt-" + UUID.randomUUID();
        String noHandoff = mapper.writeValueAsString(Records.offered(project, thread, UUID.randomUUID(), Instant.now()))
                .replaceAll("\"handoff\":\\{[^}]*\\}", "\"handoff\":null");
        String otherProject = mapper.writeValueAsString(Records.credits(UUID.randomUUID(), thread, "1"));
        String neverOffered = mapper.writeValueAsString(
                Records.handoff(project, thread, AssistantThreadRecorded.HANDOFF_ACCEPTED, UUID.randomUUID()));
        String badKind = mapper.writeValueAsString(Records.credits(project, thread, "1")).replace("credits_used", "vanished");
        TestKafka.publish(Topics.AGENTS_THREADS, key, List.of("[]", noHandoff, otherProject, neverOffered, badKind));
        List<ConsumerRecord<String, String>> dead = TestKafka.awaitRecords(DeadLetters.topic(Topics.AGENTS_THREADS),
                r -> key.equals(r.key()), 5, WAIT);
        assertThat(dead).extracting(ConsumerRecord::value).containsExactly("[]", noHandoff, otherProject, neverOffered, badKind);
        assertThat(dead).extracting(r -> new String(r.headers().lastHeader(DeadLetters.REASON_HEADER).value(), StandardCharsets.UTF_8))
                // the topic's schema (docs/events/agents.threads.schema.json) first, then the service's rules
                .containsExactly("poison: not a JSON object",
                        "poison: does not match the schema of agents.threads (/handoff type)",
                        "poison: the thread belongs to another project", "poison: names a handoff never offered in this thread",
                        "poison: does not match the schema of agents.threads (/kind enum)");
        assertThat(count("SELECT count(*) FROM thread_credits WHERE thread_id = $1", thread)).isZero();
    }
}
