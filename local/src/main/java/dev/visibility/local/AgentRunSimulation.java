package dev.visibility.local;

import java.io.PrintStream;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * {@code ./suite simulate agent-run}: one managed-agent run published onto {@code agents.runs} as the
 * agent runner publishes it (schema {@code docs/events/agents.runs.schema.json}, key projectId):
 * first running (revision 0), then completed with its review completed and a draft (revision 1).
 * agents-service keeps the latest revision; E8 then shows the run with its draft output.
 */
final class AgentRunSimulation {

    static final String TOPIC = "agents.runs";
    static final String RECORD_TYPE = "AgentRunRecorded";

    private final SuiteLocation suite;

    AgentRunSimulation(SuiteLocation suite) {
        this.suite = suite;
    }

    void run(SuiteCli.Options options, PrintStream out) {
        UUID projectId = TrackingRunSimulation.projectOption(options.get("--project"), suite);
        suite.requireKafka();
        UUID runId = UUID.randomUUID();
        Instant now = Instant.now();
        RecordMetadata sent = null;
        for (Map<String, Object> record : records(projectId, runId, now)) {
            sent = InternalProducer.publish(suite.kafkaBootstrap(), TOPIC, projectId.toString(), (String) record.get("eventId"),
                    RECORD_TYPE, SuiteLocation.JSON.writeValueAsString(record));
        }
        out.printf("managed-agent run %s published onto %s (project %s, running then completed and reviewed; partition %d)%n",
                runId, TOPIC, projectId, sent.partition());
        out.println("  E8 shows it with its draft: GET " + suite.gatewayUrl() + "/api/v2/projects/" + projectId + "/agents/runs/"
                + runId + " (a key with agents.read)");
    }

    /** The run's two states: running, then completed with its review completed and a draft. */
    static List<Map<String, Object>> records(UUID projectId, UUID runId, Instant now) {
        Instant created = now.truncatedTo(ChronoUnit.MILLIS).minusSeconds(300);
        Map<String, Object> running = record(projectId, runId, 0, "running", "not_started", created, null, 2.5, null);
        Map<String, Object> draft = new LinkedHashMap<>();
        draft.put("title", "Refresh of the pricing page");
        draft.put("format", "markdown");
        draft.put("sections", List.of("What changed", "Answers to the top prompts", "Sources"));
        Map<String, Object> reviewed = record(projectId, runId, 1, "completed", "completed", created,
                now.truncatedTo(ChronoUnit.MILLIS), 14.5, draft);
        return List.of(running, reviewed);
    }

    private static Map<String, Object> record(UUID projectId, UUID runId, long revision, String status, String review,
            Instant created, Instant completed, double credits, Map<String, Object> draft) {
        Map<String, Object> evidence = Map.of("verdict", "blocked",
                "unavailable", List.of(Map.of("source", "analytics", "state", "missing")));
        Map<String, Object> definition = new LinkedHashMap<>();
        definition.put("agentKey", "content-refresh");
        definition.put("description", "Rewrites pages whose AI citations dropped");
        definition.put("displayName", "Content refresh");
        definition.put("workflowKey", "content_refresh");
        definition.put("outputArtifactType", "page_draft");
        definition.put("isCustom", false);
        definition.put("evidence", evidence);
        definition.put("quickActions", List.of("open_draft", "request_changes", "approve"));
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("eventId", UUID.randomUUID().toString());
        r.put("projectId", projectId.toString());
        r.put("runId", runId.toString());
        r.put("revision", revision);
        r.put("status", status);
        r.put("reviewState", review);
        r.put("workflowKey", "content_refresh");
        r.put("scheduleOccurrenceKey", "simulated:" + created.toString().substring(0, 10));
        r.put("createdAt", created.toString());
        r.put("startedAt", created.plusSeconds(3).toString());
        r.put("completedAt", completed == null ? null : completed.toString());
        r.put("creditsUsed", credits);
        r.put("usage", Map.of("inputTokens", 15_000 + 4_000 * revision, "outputTokens", 2_500 + 1_500 * revision));
        r.put("draftOutput", draft);
        r.put("evidenceBlock", evidence);
        r.put("definition", definition);
        return r;
    }
}
