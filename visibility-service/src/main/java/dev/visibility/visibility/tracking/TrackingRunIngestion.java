package dev.visibility.visibility.tracking;

import java.time.Instant;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import dev.visibility.platform.events.EventName;
import dev.visibility.platform.events.PublicEvent;
import dev.visibility.platform.events.SearchTrackingCompleted;
import dev.visibility.platform.events.TrackingRunCompleted;
import dev.visibility.platform.events.VisibilityChanged;
import dev.visibility.platform.outbox.OutboxWriter;
import dev.visibility.platform.outbox.Claims;
import dev.visibility.platform.outbox.ProcessedEvents;
import dev.visibility.visibility.config.VisibilityProperties;
import dev.visibility.visibility.ingest.MultiRowInsert;
import dev.visibility.visibility.ingest.MultiRowInsert.Column;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;
import tools.jackson.databind.ObjectMapper;

/**
 * Applies one tracking run in one transaction: the claim of its eventId, the run row (idempotent
 * by run id), its responses, and its public events in the outbox.
 *
 * <p>Events: every new run emits {@code search-tracking.completed} with its final status. A
 * completed run that is the project's latest in capture order (capturedOn, then completedAt, then
 * runId) also emits {@code visibility.changed}, whose {@code previousMetrics} are those of the
 * completed run just before it in that order, or null when there is none. A completed run that
 * arrives after a later one (out of order) is stored and counts in the summary's trend, but it
 * emits no {@code visibility.changed}: the project's current visibility did not change, and the
 * later run stays the latest. A duplicate (same eventId or same runId) changes and emits nothing.
 */
@Component
public class TrackingRunIngestion {

    static final String CONSUMER = "visibility-service.tracking-runs";
    static final Claims CLAIMS = Claims.processedEvents(CONSUMER);

    /** What applying a record did. */
    public enum Outcome { LATEST, OUT_OF_ORDER, FAILED_RUN, DUPLICATE_EVENT, DUPLICATE_RUN }

    private static final MultiRowInsert RESPONSES = new MultiRowInsert("""
            INSERT INTO responses (execution_id, run_id, project_id, prompt_id, platform, prompt_text, answer_text,
                completed_at, retain_until, ad_capture_measured, ads, ad_count, citations, brand_mentions, brand_visible)""",
            "ON CONFLICT (execution_id) DO NOTHING",
            List.of(Column.of(UUID.class), Column.of(UUID.class), Column.of(UUID.class), Column.of(UUID.class),
                    Column.of(String.class), Column.of(String.class), Column.of(String.class), Column.of(Instant.class),
                    Column.of(Instant.class), Column.of(Boolean.class), Column.jsonb(), Column.of(Integer.class),
                    Column.jsonb(), Column.jsonb(), Column.of(Boolean.class)),
            200);

    private final DatabaseClient db;
    private final TransactionalOperator tx;
    private final OutboxWriter outbox;
    private final ProcessedEvents processed;
    private final ObjectMapper mapper;
    private final VisibilityProperties properties;

    TrackingRunIngestion(DatabaseClient db, TransactionalOperator tx, OutboxWriter outbox, ProcessedEvents processed,
            ObjectMapper mapper, VisibilityProperties properties) {
        this.db = db;
        this.tx = tx;
        this.outbox = outbox;
        this.processed = processed;
        this.mapper = mapper;
        this.properties = properties;
    }

    public Mono<Outcome> ingest(TrackingRunCompleted run) {
        RunMetrics metrics = RunMetrics.of(run.samples());
        Mono<Outcome> work = processed.claim(CLAIMS, run.eventId()).flatMap(claimed -> {
            if (!claimed) {
                return Mono.just(Outcome.DUPLICATE_EVENT);
            }
            // one project's runs are applied one at a time, whatever partition they came from
            return lockProject(run.projectId())
                    .then(insertRun(run, metrics))
                    .flatMap(inserted -> inserted == 0 ? Mono.just(Outcome.DUPLICATE_RUN)
                            : insertResponses(run).then(publish(run, metrics)));
        });
        return tx.transactional(work);
    }

    private Mono<Void> lockProject(UUID projectId) {
        return db.sql("SELECT pg_advisory_xact_lock(:key)")
                .bind("key", projectId.getMostSignificantBits() ^ projectId.getLeastSignificantBits())
                .then();
    }

    private Mono<Long> insertRun(TrackingRunCompleted run, RunMetrics metrics) {
        DatabaseClient.GenericExecuteSpec spec = db.sql("""
                INSERT INTO tracking_runs (run_id, project_id, account_id, final_status, captured_on, started_at,
                    completed_at, sample_count, visible_sample_count, citation_count, brand_mention_count, visibility_score)
                VALUES (:runId, :projectId, :accountId, :finalStatus, :capturedOn, :startedAt, :completedAt,
                    :samples, :visible, :citations, :mentions, :score)
                ON CONFLICT (run_id) DO NOTHING""")
                .bind("runId", run.runId())
                .bind("projectId", run.projectId())
                .bind("accountId", run.accountId())
                .bind("finalStatus", run.finalStatus())
                .bind("capturedOn", run.capturedOn())
                .bind("completedAt", micros(run.completedAt()))
                .bind("samples", metrics.sampleCount())
                .bind("visible", metrics.visibleSampleCount())
                .bind("citations", metrics.citationCount())
                .bind("mentions", metrics.brandMentionCount())
                .bind("score", metrics.visibilityScore());
        spec = run.startedAt() == null ? spec.bindNull("startedAt", Instant.class) : spec.bind("startedAt", micros(run.startedAt()));
        return spec.fetch().rowsUpdated();
    }

    private Mono<Long> insertResponses(TrackingRunCompleted run) {
        Instant now = Instant.now();
        List<Object[]> rows = new ArrayList<>(run.samples().size());
        for (TrackingRunCompleted.Sample s : run.samples()) {
            Instant completedAt = micros(s.completedAt());
            Instant retainUntil = micros(s.retainUntil() != null ? s.retainUntil() : completedAt.plus(properties.responseRetention()));
            List<TrackingRunCompleted.Ad> ads = s.ads() == null ? List.of() : s.ads().stream().map(TrackingRunIngestion::complete).toList();
            rows.add(new Object[] {s.executionId(), run.runId(), run.projectId(), s.promptId(), s.platform(), s.prompt(),
                    // an answer already past its retention is never stored
                    retainUntil.isAfter(now) ? s.answerText() : null,
                    completedAt, retainUntil, s.adCaptureMeasured(), mapper.writeValueAsString(ads), ads.size(),
                    mapper.writeValueAsString(s.citations() == null ? List.of() : s.citations()),
                    mapper.writeValueAsString(s.brandMentions() == null ? List.of() : s.brandMentions()),
                    RunMetrics.brandVisible(s)});
        }
        return RESPONSES.execute(db, rows);
    }

    private Mono<Outcome> publish(TrackingRunCompleted run, RunMetrics metrics) {
        String projectId = run.projectId().toString();
        Mono<Void> completed = outbox.append(PublicEvent.of(EventName.SEARCH_TRACKING_COMPLETED, projectId, run.accountId(),
                new SearchTrackingCompleted(run.runId().toString(), run.finalStatus())));
        if (!TrackingRunCompleted.COMPLETED.equals(run.finalStatus())) {
            return completed.thenReturn(Outcome.FAILED_RUN);
        }
        Instant completedAt = micros(run.completedAt());
        return completed.then(hasLaterRun(run, completedAt)).flatMap(later -> {
            if (later) {
                return Mono.just(Outcome.OUT_OF_ORDER);
            }
            return previousRun(run, completedAt).map(Optional::of).defaultIfEmpty(Optional.empty())
                    .flatMap(previous -> outbox.append(PublicEvent.of(EventName.VISIBILITY_CHANGED, projectId,
                            run.accountId(), new VisibilityChanged(run.runId().toString(), run.capturedOn(),
                                    new VisibilityChanged.Metrics(metrics.visibilityScore().doubleValue(),
                                            metrics.citationCount(), metrics.brandMentionCount(), metrics.sampleCount()),
                                    previous.orElse(null)))))
                    .thenReturn(Outcome.LATEST);
        });
    }

    private Mono<Boolean> hasLaterRun(TrackingRunCompleted run, Instant completedAt) {
        return db.sql("""
                SELECT EXISTS (SELECT 1 FROM tracking_runs
                    WHERE project_id = :projectId AND final_status = 'completed'
                      AND (captured_on, completed_at, run_id) > (:capturedOn, :completedAt, :runId))""")
                .bind("projectId", run.projectId())
                .bind("capturedOn", run.capturedOn())
                .bind("completedAt", completedAt)
                .bind("runId", run.runId())
                .map(row -> row.get(0, Boolean.class))
                .one();
    }

    private Mono<VisibilityChanged.PreviousMetrics> previousRun(TrackingRunCompleted run, Instant completedAt) {
        return db.sql("""
                SELECT visibility_score, citation_count, brand_mention_count, sample_count, captured_on
                FROM tracking_runs
                WHERE project_id = :projectId AND final_status = 'completed'
                  AND (captured_on, completed_at, run_id) < (:capturedOn, :completedAt, :runId)
                ORDER BY captured_on DESC, completed_at DESC, run_id DESC
                LIMIT 1""")
                .bind("projectId", run.projectId())
                .bind("capturedOn", run.capturedOn())
                .bind("completedAt", completedAt)
                .bind("runId", run.runId())
                .map(row -> new VisibilityChanged.PreviousMetrics(
                        row.get("visibility_score", java.math.BigDecimal.class).doubleValue(),
                        row.get("citation_count", Integer.class),
                        row.get("brand_mention_count", Integer.class),
                        row.get("sample_count", Integer.class),
                        row.get("captured_on", LocalDate.class)))
                .one();
    }

    private static TrackingRunCompleted.Ad complete(TrackingRunCompleted.Ad ad) {
        return new TrackingRunCompleted.Ad(text(ad.title()), text(ad.description()), text(ad.domain()), text(ad.name()),
                text(ad.body()), text(ad.url()));
    }

    private static String text(String value) {
        return value == null ? "" : value;
    }

    static Instant micros(Instant instant) {
        return instant.truncatedTo(ChronoUnit.MICROS);
    }
}
