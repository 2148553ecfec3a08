package dev.visibility.visibility.support;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

import dev.visibility.platform.events.AgentPicksRunRecorded;
import dev.visibility.platform.events.AgentPicksRunRecorded.Classification;
import dev.visibility.platform.events.AgentPicksRunRecorded.Context;
import dev.visibility.platform.events.AgentPicksRunRecorded.Environment;
import dev.visibility.platform.events.AgentPicksRunRecorded.Evidence;

/** Agent-picks records for tests: one run of one test of one project, as a producer would publish them. */
public final class AgentPicks {

    public static final Instant CREATED = Instant.parse("2026-11-20T10:00:00Z");

    public final UUID projectId;
    public final String accountId;
    public final UUID testId;
    public final UUID runId;

    public AgentPicks(UUID projectId, String accountId, UUID testId, UUID runId) {
        this.projectId = projectId;
        this.accountId = accountId;
        this.testId = testId;
        this.runId = runId;
    }

    public static AgentPicks fresh() {
        return new AgentPicks(UUID.randomUUID(), "acct-" + UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID());
    }

    /** Another run of the same test. */
    public AgentPicks anotherRun() {
        return new AgentPicks(projectId, accountId, testId, UUID.randomUUID());
    }

    public AgentPicksRunRecorded record(long revision, String status, Context context, Classification classification,
            List<Evidence> evidence, boolean trailComplete) {
        boolean started = !status.equals("queued");
        boolean finished = List.of("failed", "cancelled", "completed").contains(status);
        AgentPicksRunRecorded.Run run = new AgentPicksRunRecorded.Run("claude-code", "claude-sonnet-4", 2, status, CREATED,
                started ? CREATED.plusSeconds(5) : null, finished ? CREATED.plusSeconds(125) : null, false,
                finished ? 120_000L : null, status.equals("failed"), status.equals("failed") ? "Traceback: boom" : null);
        return new AgentPicksRunRecorded(UUID.randomUUID(), runId, testId, projectId, accountId, revision,
                CREATED.plusSeconds(revision), new AgentPicksRunRecorded.Test("payments", status), run, context,
                classification, evidence, trailComplete);
    }

    public AgentPicksRunRecorded record(long revision, String status, List<Evidence> evidence, boolean trailComplete) {
        return record(revision, status, context(), null, evidence, trailComplete);
    }

    public static Context context() {
        return new Context(new Environment("env-1", "nextjs-saas", "Next.js SaaS starter", "nextjs"),
                "Add payments to my app", "add_payments", "Implement checkout", "clf-2026.11", 900.0);
    }

    public static Evidence fetch(long seq, String url) {
        return new Evidence(UUID.randomUUID(), seq, "fetch", url, 200, CREATED.plusSeconds(seq).truncatedTo(ChronoUnit.MILLIS),
                1500.0 + seq, List.of(), null, List.of(), "web", "GET", null, null, null, null, null);
    }
}
