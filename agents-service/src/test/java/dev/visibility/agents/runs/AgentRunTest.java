package dev.visibility.agents.runs;

import static dev.visibility.platform.testing.Http.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
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
import dev.visibility.platform.events.AgentRunRecorded;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.testing.TestKafka;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** E8 (spec 2.9, 3, E8, 5.8) from agents.runs records. */
class AgentRunTest extends AgentsTest {

    private static final Map<String, Object> DRAFT = Map.of("title", "Pricing page refresh", "sections", List.of("intro", "faq"));

    private final UUID project = UUID.randomUUID();
    private final UUID member = UUID.randomUUID();

    private Map<String, Object> run(UUID runId, int status) {
        return json(get(base(project) + "/agents/runs/" + runId, bearer(project, member)), status);
    }

    private void ingest(AgentRunRecorded record) {
        Schemas.assertValidEvent(Topics.AGENTS_RUNS, mapper.writeValueAsString(record));
        publish(Topics.AGENTS_RUNS, record.projectId(), record);
    }

    private void awaitRevision(UUID runId, long revision) {
        awaitCount(1, "SELECT count(*) FROM agent_runs WHERE id = $1 AND revision = $2", runId, revision);
    }

    /** Spec 2.9: exactly the fields of a managed-agent run, with {data, meta}; the draft once the review completed (E8). */
    @Test
    void aReviewedRunHasExactlyTheFieldsOfSpec29WithItsDraft() {
        UUID runId = UUID.randomUUID();
        ingest(Records.run(project, runId, 3, "completed", "completed", DRAFT));
        awaitRevision(runId, 3);

        Map<String, Object> body = run(runId, 200);
        assertThat(body.keySet()).containsExactlyInAnyOrder("data", "meta");
        @SuppressWarnings("unchecked")
        Map<String, Object> meta = (Map<String, Object>) body.get("meta");
        assertThat(meta.keySet()).containsExactlyInAnyOrder("timestamp", "projectId");
        assertThat(meta).containsEntry("projectId", project.toString());
        @SuppressWarnings("unchecked")
        Map<String, Object> data = (Map<String, Object>) body.get("data");
        assertThat(data.keySet()).containsExactlyInAnyOrder("completedAt", "createdAt", "startedAt", "creditsUsed", "id",
                "scheduleOccurrenceKey", "status", "workflowKey", "usage", "draftOutput", "evidenceBlock", "definition");
        assertThat(data).containsEntry("id", runId.toString())
                .containsEntry("status", "completed")
                .containsEntry("workflowKey", "content_refresh")
                .containsEntry("scheduleOccurrenceKey", "weekly:2026-W47")
                .containsEntry("creditsUsed", 12.5)
                .containsEntry("draftOutput", DRAFT)
                .containsEntry("usage", Map.of("inputTokens", 18250, "outputTokens", 4120, "toolCalls", 7));
        assertThat(Instant.parse((String) data.get("createdAt"))).isEqualTo(Records.CREATED);
        assertThat(Instant.parse((String) data.get("startedAt"))).isEqualTo(Records.CREATED.plusSeconds(5));
        assertThat(Instant.parse((String) data.get("completedAt"))).isEqualTo(Records.CREATED.plusSeconds(300));
        Map<String, Object> evidence = Map.of("verdict", "blocked", "unavailable", List.of(Map.of("source", "analytics", "state", "missing")));
        assertThat(data).containsEntry("evidenceBlock", evidence);
        @SuppressWarnings("unchecked")
        Map<String, Object> definition = (Map<String, Object>) data.get("definition");
        assertThat(definition.keySet()).containsExactlyInAnyOrder("agentKey", "description", "displayName", "workflowKey",
                "outputArtifactType", "isCustom", "evidence", "quickActions");
        assertThat(definition).containsEntry("agentKey", "content-refresh").containsEntry("isCustom", false)
                .containsEntry("workflowKey", "content_refresh").containsEntry("outputArtifactType", "page_draft")
                .containsEntry("evidence", evidence).containsEntry("quickActions", List.of("open_draft", "request_changes"));
    }

    /** Spec 3 and E8: the draft output is returned only once the run reached a completed review state. */
    @Test
    void theDraftIsNullUntilTheReviewCompletedAndAnOlderRevisionNeverRollsTheRunBack() {
        UUID runId = UUID.randomUUID();
        ingest(Records.run(project, runId, 2, "completed", "awaiting_review", DRAFT));
        awaitRevision(runId, 2);
        @SuppressWarnings("unchecked")
        Map<String, Object> awaiting = (Map<String, Object>) run(runId, 200).get("data");
        assertThat(awaiting).containsEntry("draftOutput", null).containsEntry("status", "completed");

        ingest(Records.run(project, runId, 4, "completed", "completed", DRAFT));
        awaitRevision(runId, 4);
        // a late record of an older state arrives after the review completed
        ingest(Records.run(project, runId, 1, "running", "not_started", null));
        UUID marker = UUID.randomUUID();
        ingest(Records.run(project, marker, 0, "queued", "not_started", null));
        awaitRevision(marker, 0);
        @SuppressWarnings("unchecked")
        Map<String, Object> reviewed = (Map<String, Object>) run(runId, 200).get("data");
        assertThat(reviewed).containsEntry("draftOutput", DRAFT).containsEntry("status", "completed");
    }

    @Test
    void aRunningRunHasNoCompletionAndNoDraft() {
        UUID runId = UUID.randomUUID();
        ingest(Records.run(project, runId, 0, "running", "not_started", null));
        awaitRevision(runId, 0);
        @SuppressWarnings("unchecked")
        Map<String, Object> data = (Map<String, Object>) run(runId, 200).get("data");
        assertThat(data).containsEntry("status", "running").containsEntry("completedAt", null).containsEntry("draftOutput", null);
    }

    /** Spec 5.4, 7: an unknown run and another project's run are one 404; an id that is not a UUID is 400 naming runId. */
    @Test
    void unknownAndForeignRunsAre404AndABadIdIs400() {
        UUID foreign = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        ingest(Records.run(other, foreign, 0, "running", "not_started", null));
        awaitRevision(foreign, 0);
        assertThat(run(foreign, 404)).containsEntry("error", "not_found").doesNotContainKey("reason");
        assertThat(run(UUID.randomUUID(), 404)).containsEntry("error", "not_found");
        Map<String, Object> bad = json(get(base(project) + "/agents/runs/not-a-run", bearer(project, member)), 400);
        assertThat(bad).containsEntry("error", "invalid_request");
        assertThat((String) bad.get("message")).contains("runId");
    }

    /** Spec 5.8: E8 needs agents.read; a plan without managed agents is refused with its own reason. */
    @Test
    void e8NeedsAgentsReadAndManagedAgents() {
        String path = base(project) + "/agents/runs/" + UUID.randomUUID();
        refusal(get(path, bearer(project, member, Set.of(AgentsAccess.RUN), Set.of(AgentsAccess.FEATURE))), 403, "missing_scope");
        refusal(get(path, bearer(project, member, Set.of(AgentsAccess.READ), Set.of("agent-picks"))), 403, "agents_not_enabled");
    }

    /** A run named in another project than its own is poison, as is a record that breaks the contract. */
    @Test
    void malformedRecordsAreDeadLetteredWithTheirReason() {
        UUID runId = UUID.randomUUID();
        ingest(Records.run(project, runId, 0, "running", "not_started", null));
        awaitRevision(runId, 0);
        String key = "dlt-" + UUID.randomUUID();
        String moved = mapper.writeValueAsString(Records.run(UUID.randomUUID(), runId, 5, "completed", "completed", DRAFT));
        String badStatus = mapper.writeValueAsString(Records.run(project, UUID.randomUUID(), 0, "running", "not_started", null))
                .replace("\"status\":\"running\"", "\"status\":\"exploded\"");
        TestKafka.publish(Topics.AGENTS_RUNS, key, List.of("{not json", badStatus, moved));
        List<ConsumerRecord<String, String>> dead = TestKafka.awaitRecords(DeadLetters.topic(Topics.AGENTS_RUNS),
                r -> key.equals(r.key()), 3, WAIT);
        assertThat(dead).extracting(ConsumerRecord::value).containsExactly("{not json", badStatus, moved);
        assertThat(dead).extracting(r -> new String(r.headers().lastHeader("x-dlt-reason").value(), StandardCharsets.UTF_8))
                // the topic's schema (docs/events/agents.runs.schema.json) first, then the service's rules
                .containsExactly("poison: not JSON",
                        "poison: does not match the schema of agents.runs (/status enum)",
                        "poison: the run belongs to another project");
        assertThat(count("SELECT revision FROM agent_runs WHERE id = $1", runId)).isZero();
    }
}
