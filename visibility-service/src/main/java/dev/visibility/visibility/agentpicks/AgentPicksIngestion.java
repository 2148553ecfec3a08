package dev.visibility.visibility.agentpicks;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import dev.visibility.platform.consumer.PoisonRecord;
import dev.visibility.platform.events.AgentPicksRunRecorded;
import dev.visibility.platform.outbox.Claims;
import dev.visibility.platform.outbox.ProcessedEvents;
import dev.visibility.platform.db.MultiRowInsert;
import dev.visibility.platform.db.MultiRowInsert.Column;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;
import tools.jackson.databind.ObjectMapper;

/**
 * Applies one {@code agentpicks.runs} record in one transaction: the claim of its eventId, the
 * test (status ordered by {@code occurredAt}), the run (replaced only by a higher revision) and
 * the evidence items (inserted once per id). A record whose run or test already belongs to
 * another account, project or test is refused (dead-letter topic) and changes nothing.
 */
@Component
public class AgentPicksIngestion {

    static final String CONSUMER = "visibility-service.agentpicks-runs";
    static final Claims CLAIMS = Claims.processedEvents(CONSUMER);

    public enum Outcome { APPLIED, STALE_REVISION, DUPLICATE_EVENT }

    private static final MultiRowInsert EVIDENCE = new MultiRowInsert("""
            INSERT INTO agentpicks_evidence (run_id, seq, id, kind, url, status_code, recorded_at, observed_at, queries,
                path, packages, source, method, exit_code, failed, command, text, error_text)""",
            "ON CONFLICT DO NOTHING",
            List.of(Column.of(UUID.class), Column.of(Long.class), Column.of(UUID.class), Column.of(String.class),
                    Column.of(String.class), Column.of(Integer.class), Column.of(Instant.class), Column.of(Double.class),
                    Column.jsonb(), Column.of(String.class), Column.jsonb(), Column.of(String.class),
                    Column.of(String.class), Column.of(Integer.class), Column.of(Boolean.class), Column.of(String.class),
                    Column.of(String.class), Column.of(String.class)));

    private final DatabaseClient db;
    private final TransactionalOperator tx;
    private final ProcessedEvents processed;
    private final ObjectMapper mapper;

    AgentPicksIngestion(DatabaseClient db, TransactionalOperator tx, ProcessedEvents processed, ObjectMapper mapper) {
        this.db = db;
        this.tx = tx;
        this.processed = processed;
        this.mapper = mapper;
    }

    public Mono<Outcome> ingest(AgentPicksRunRecorded r) {
        Mono<Outcome> work = processed.claim(CLAIMS, r.eventId()).flatMap(claimed -> {
            if (!claimed) {
                return Mono.just(Outcome.DUPLICATE_EVENT);
            }
            return checkOwners(r)
                    .then(upsertTest(r))
                    .then(upsertRun(r))
                    .flatMap(updated -> insertEvidence(r).thenReturn(updated > 0 ? Outcome.APPLIED : Outcome.STALE_REVISION));
        });
        return tx.transactional(work);
    }

    private Mono<Void> checkOwners(AgentPicksRunRecorded r) {
        Mono<Boolean> testMismatch = db.sql("SELECT project_id, account_id FROM agentpicks_tests WHERE test_id = :test FOR UPDATE")
                .bind("test", r.testId())
                .map(row -> !r.projectId().equals(row.get("project_id", UUID.class))
                        || !r.accountId().equals(row.get("account_id", String.class)))
                .one().defaultIfEmpty(false);
        Mono<Boolean> runMismatch = db.sql("SELECT project_id, test_id, account_id FROM agentpicks_runs WHERE run_id = :run FOR UPDATE")
                .bind("run", r.runId())
                .map(row -> !r.projectId().equals(row.get("project_id", UUID.class))
                        || !r.testId().equals(row.get("test_id", UUID.class))
                        || !r.accountId().equals(row.get("account_id", String.class)))
                .one().defaultIfEmpty(false);
        return testMismatch.zipWith(runMismatch).flatMap(mismatch -> mismatch.getT1() || mismatch.getT2()
                ? Mono.error(new PoisonRecord("run " + r.runId() + " or test " + r.testId()
                        + " already belongs to another account, project or test"))
                : Mono.empty());
    }

    private Mono<Long> upsertTest(AgentPicksRunRecorded r) {
        return db.sql("""
                INSERT INTO agentpicks_tests (test_id, project_id, account_id, kind, status, status_at)
                VALUES (:test, :project, :account, :kind, :status, :at)
                ON CONFLICT (test_id) DO UPDATE SET kind = EXCLUDED.kind, status = EXCLUDED.status, status_at = EXCLUDED.status_at
                WHERE agentpicks_tests.status_at <= EXCLUDED.status_at""")
                .bind("test", r.testId()).bind("project", r.projectId()).bind("account", r.accountId())
                .bind("kind", r.test().kind()).bind("status", r.test().status()).bind("at", micros(r.occurredAt()))
                .fetch().rowsUpdated();
    }

    private Mono<Long> upsertRun(AgentPicksRunRecorded r) {
        AgentPicksRunRecorded.Run run = r.run();
        AgentPicksRunRecorded.Context context = r.context() == null
                ? new AgentPicksRunRecorded.Context(null, null, null, null, null, null) : r.context();
        DatabaseClient.GenericExecuteSpec spec = db.sql("""
                INSERT INTO agentpicks_runs (run_id, test_id, project_id, account_id, revision, agent, model, repetition,
                    status, created_at, started_at, completed_at, early_stopped, wall_ms, error_text, has_error, environment,
                    request_text, intent, job_text, classifier_version, agent_timeout_sec, classification, trail_complete)
                VALUES (:run, :test, :project, :account, :revision, :agent, :model, :repetition, :status, :createdAt,
                    :startedAt, :completedAt, :earlyStopped, :wallMs, :error, :hasError, CAST(:environment AS jsonb),
                    :request, :intent, :job, :classifierVersion, :timeout, CAST(:classification AS jsonb), :trailComplete)
                ON CONFLICT (run_id) DO UPDATE SET revision = EXCLUDED.revision, agent = EXCLUDED.agent,
                    model = EXCLUDED.model, repetition = EXCLUDED.repetition, status = EXCLUDED.status,
                    created_at = EXCLUDED.created_at, started_at = EXCLUDED.started_at,
                    completed_at = EXCLUDED.completed_at, early_stopped = EXCLUDED.early_stopped,
                    wall_ms = EXCLUDED.wall_ms, error_text = EXCLUDED.error_text, has_error = EXCLUDED.has_error,
                    environment = EXCLUDED.environment, request_text = EXCLUDED.request_text, intent = EXCLUDED.intent,
                    job_text = EXCLUDED.job_text, classifier_version = EXCLUDED.classifier_version,
                    agent_timeout_sec = EXCLUDED.agent_timeout_sec, classification = EXCLUDED.classification,
                    trail_complete = EXCLUDED.trail_complete, updated_at = now()
                WHERE agentpicks_runs.revision < EXCLUDED.revision""")
                .bind("run", r.runId()).bind("test", r.testId()).bind("project", r.projectId())
                .bind("account", r.accountId()).bind("revision", r.revision()).bind("agent", run.agent())
                .bind("model", run.model()).bind("repetition", run.repetition()).bind("status", run.status())
                .bind("createdAt", micros(run.createdAt())).bind("earlyStopped", run.earlyStopped())
                .bind("hasError", run.hasError() || run.error() != null).bind("trailComplete", r.trailComplete());
        spec = bindNullable(spec, "startedAt", run.startedAt() == null ? null : micros(run.startedAt()), Instant.class);
        spec = bindNullable(spec, "completedAt", run.completedAt() == null ? null : micros(run.completedAt()), Instant.class);
        spec = bindNullable(spec, "wallMs", run.wallMs(), Long.class);
        spec = bindNullable(spec, "error", run.error(), String.class);
        spec = bindNullable(spec, "environment", context.environment() == null ? null
                : mapper.writeValueAsString(context.environment()), String.class);
        spec = bindNullable(spec, "request", context.request(), String.class);
        spec = bindNullable(spec, "intent", context.intent(), String.class);
        spec = bindNullable(spec, "job", context.job(), String.class);
        spec = bindNullable(spec, "classifierVersion", context.classifierVersion(), String.class);
        spec = bindNullable(spec, "timeout", context.agentTimeoutSec(), Double.class);
        spec = bindNullable(spec, "classification", r.classification() == null ? null
                : mapper.writeValueAsString(r.classification()), String.class);
        return spec.fetch().rowsUpdated();
    }

    private Mono<Long> insertEvidence(AgentPicksRunRecorded r) {
        if (r.evidence() == null || r.evidence().isEmpty()) {
            return Mono.just(0L);
        }
        List<Object[]> rows = new ArrayList<>(r.evidence().size());
        for (AgentPicksRunRecorded.Evidence e : r.evidence()) {
            rows.add(new Object[] {r.runId(), e.seq(), e.id(), e.kind(), e.url(), e.statusCode(), micros(e.recordedAt()),
                    e.observedAt(), mapper.writeValueAsString(e.queries() == null ? List.of() : e.queries()), e.path(),
                    mapper.writeValueAsString(e.packages() == null ? List.of() : e.packages()), e.source(), e.method(),
                    e.exitCode(), e.failed(), e.command(), e.text(), e.error()});
        }
        return EVIDENCE.execute(db, rows);
    }

    private static DatabaseClient.GenericExecuteSpec bindNullable(DatabaseClient.GenericExecuteSpec spec, String name,
            Object value, Class<?> type) {
        return value == null ? spec.bindNull(name, type) : spec.bind(name, value);
    }

    private static Instant micros(Instant instant) {
        return instant.truncatedTo(ChronoUnit.MICROS);
    }
}
