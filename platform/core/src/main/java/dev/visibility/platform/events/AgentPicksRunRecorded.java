package dev.visibility.platform.events;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import dev.visibility.platform.consumer.ConsumedRecord;
import dev.visibility.platform.consumer.PoisonRecord;

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
        List<Evidence> evidence, boolean trailComplete) implements ConsumedRecord {

    public static final List<String> STATUSES = List.of("queued", "running", "failed", "cancelled", "completed");
    public static final List<String> EVIDENCE_KINDS = List.of("search", "fetch", "read", "command", "install", "write");
    /** Evidence items per record at most. */
    public static final int MAX_EVIDENCE = 2_000;

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

    /** The rules of the topic's schema that the types do not enforce; a record that breaks one is poison. */
    @Override
    public void validate() {
        check(this);
    }

    private static void check(AgentPicksRunRecorded r) {
        if (r == null || r.eventId() == null || r.runId() == null || r.testId() == null || r.projectId() == null
                || blank(r.accountId()) || tooLong(r.accountId(), 100) || r.occurredAt() == null || r.revision() < 0) {
            throw new PoisonRecord("lacks eventId, runId, testId, projectId, accountId, occurredAt or a revision >= 0");
        }
        if (r.test() == null || blank(r.test().kind()) || tooLong(r.test().kind(), 100)
                || !AgentPicksRunRecorded.STATUSES.contains(r.test().status())) {
            throw new PoisonRecord("test needs a kind and a status of " + AgentPicksRunRecorded.STATUSES);
        }
        AgentPicksRunRecorded.Run run = r.run();
        if (run == null || blank(run.agent()) || blank(run.model()) || tooLong(run.agent(), 200) || tooLong(run.model(), 200)
                || run.repetition() < 0 || !AgentPicksRunRecorded.STATUSES.contains(run.status()) || run.createdAt() == null
                || run.wallMs() != null && run.wallMs() < 0) {
            throw new PoisonRecord("run needs agent, model, repetition >= 0, createdAt and a status of "
                    + AgentPicksRunRecorded.STATUSES);
        }
        AgentPicksRunRecorded.Context context = r.context();
        if (context != null && context.environment() != null) {
            AgentPicksRunRecorded.Environment env = context.environment();
            if (blank(env.id()) || blank(env.slug()) || blank(env.name())) {
                throw new PoisonRecord("an environment needs id, slug and name");
            }
        }
        AgentPicksRunRecorded.Classification pick = r.classification();
        if (pick != null && (blank(pick.outcome()) || blank(pick.classifierVersion()))) {
            throw new PoisonRecord("a classification needs outcome and classifierVersion");
        }
        if (pick != null && (pick.toolPackages() != null && pick.toolPackages().contains(null)
                || pick.otherTools() != null && pick.otherTools().contains(null))) {
            throw new PoisonRecord("toolPackages and otherTools must not hold nulls");
        }
        if (r.evidence() != null) {
            if (r.evidence().size() > MAX_EVIDENCE) {
                throw new PoisonRecord("at most " + MAX_EVIDENCE + " evidence items per record");
            }
            for (AgentPicksRunRecorded.Evidence e : r.evidence()) {
                if (e == null || e.id() == null || e.seq() < 0 || e.recordedAt() == null
                        || !AgentPicksRunRecorded.EVIDENCE_KINDS.contains(e.kind())
                        || e.queries() != null && e.queries().contains(null)
                        || e.packages() != null && e.packages().contains(null)) {
                    throw new PoisonRecord("every evidence item needs id, seq >= 0, recordedAt and a kind of "
                            + AgentPicksRunRecorded.EVIDENCE_KINDS);
                }
            }
        }
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }

    private static boolean tooLong(String value, int max) {
        return value != null && value.length() > max;
    }
}
