package dev.visibility.platform.events;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A record of {@code agentpicks.runs} (key runId; schema {@code docs/events/agentpicks.runs.schema.json}):
 * the state of one agent-picks run as of {@code revision}, with the evidence items recorded since
 * the previous record. Producers publish one record per status change or evidence batch.
 *
 * <p>The run's state (test, run, context, classification, trailComplete) replaces the stored one
 * only when {@code revision} is higher than the stored revision, so an older record that arrives
 * late never rolls a run back. Evidence is append-only and idempotent by evidence id, whatever
 * the revision. Everything is stored as recorded; E1 decides what it may show (E1 rule 4).
 *
 * @param occurredAt    when the producer observed this state; orders the test's status
 * @param trailComplete true once the evidence trail of the run is final (no more items will come)
 */
public record AgentPicksRunRecorded(UUID eventId, UUID runId, UUID testId, UUID projectId, String accountId,
        long revision, Instant occurredAt, Test test, Run run, Context context, Classification classification,
        List<Evidence> evidence, boolean trailComplete) {

    public static final List<String> STATUSES = List.of("queued", "running", "failed", "cancelled", "completed");
    public static final List<String> EVIDENCE_KINDS = List.of("search", "fetch", "read", "command", "install", "write");

    /** @param status one of {@link #STATUSES}, as of {@code occurredAt} */
    public record Test(String kind, String status) {
    }

    /** @param error the run's error text: stored, never shown (E1 rule 4); E1 shows has_error */
    public record Run(String agent, String model, int repetition, String status, Instant createdAt, Instant startedAt,
            Instant completedAt, boolean earlyStopped, Long wallMs, boolean hasError, String error) {
    }

    /** @param request the request text and {@code job} the job text: stored, never shown (E1 rule 4) */
    public record Context(Environment environment, String request, String intent, String job, String classifierVersion,
            Double agentTimeoutSec) {
    }

    public record Environment(String id, String slug, String name, String framework) {
    }

    /** The classifier's pick; E1 shows only the packages and tool names of the configured tool catalog. */
    public record Classification(String outcome, String toolKey, String toolDisplayName, String toolBrandDomain,
            Double confidence, String classifierVersion, String decidedBy, List<String> toolPackages,
            List<String> otherTools, boolean diffTruncated) {
    }

    /**
     * One recorded observation of the agent. Raw facts: E1 reduces {@code url} to its origin and
     * withholds {@code queries}, {@code path}, {@code command}, {@code text} and {@code error}, and
     * packages outside the tool catalog, each with its flag.
     */
    public record Evidence(UUID id, long seq, String kind, String url, Integer statusCode, Instant recordedAt,
            Double observedAt, List<String> queries, String path, List<String> packages, String source, String method,
            Integer exitCode, Boolean failed, String command, String text, String error) {
    }
}
