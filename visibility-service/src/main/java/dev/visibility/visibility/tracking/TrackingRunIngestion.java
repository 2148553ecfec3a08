package dev.visibility.visibility.tracking;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import dev.visibility.platform.consumer.Traced;
import dev.visibility.platform.db.ArrayLiterals;
import dev.visibility.platform.events.EventName;
import dev.visibility.platform.events.PublicEvent;
import dev.visibility.platform.events.SearchTrackingCompleted;
import dev.visibility.platform.events.TrackingRunCompleted;
import dev.visibility.platform.events.VisibilityChanged;
import dev.visibility.platform.outbox.OutboxWriter;
import dev.visibility.visibility.config.VisibilityProperties;
import dev.visibility.platform.db.MultiRowInsert;
import dev.visibility.platform.db.MultiRowInsert.Column;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.databind.ObjectMapper;

/**
 * Applies the tracking runs of one poll in one transaction (the platform's batch consumer claims
 * their eventIds in it first): the runs' rows (idempotent by run id), their responses, and their
 * public events in the outbox, with a few statements for the whole batch rather than several a run.
 *
 * <p>Events: every new run emits {@code search-tracking.completed} with its final status. A
 * completed run that is the project's latest in capture order (capturedOn, then completedAt, then
 * runId) also emits {@code visibility.changed}, whose {@code previousMetrics} are those of the
 * completed run just before it in that order, or null when there is none. A completed run that
 * arrives after a later one (out of order) is stored and counts in the summary's trend, but it
 * emits no {@code visibility.changed}: the project's current visibility did not change, and the
 * later run stays the latest. A duplicate (same eventId or same runId) changes and emits nothing.
 * The runs of a batch are decided in their order on the topic, each as if the ones before it had
 * been applied alone: the same events as one run at a time.
 */
@Component
public class TrackingRunIngestion {

    /** The consumer's name in {@code processed_events} (the claims of the eventIds it applied). */
    static final String CONSUMER = "visibility-service.tracking-runs";

    /** What applying a record did. */
    public enum Outcome { LATEST, OUT_OF_ORDER, FAILED_RUN, DUPLICATE_RUN }

    private static final MultiRowInsert RUNS = new MultiRowInsert("""
            INSERT INTO tracking_runs (run_id, project_id, account_id, final_status, captured_on, started_at,
                completed_at, sample_count, visible_sample_count, citation_count, brand_mention_count, visibility_score)""",
            "ON CONFLICT (run_id) DO NOTHING RETURNING run_id",
            List.of(Column.of(UUID.class), Column.of(UUID.class), Column.of(String.class), Column.of(String.class),
                    Column.of(LocalDate.class), Column.of(Instant.class), Column.of(Instant.class), Column.of(Integer.class),
                    Column.of(Integer.class), Column.of(Integer.class), Column.of(Integer.class), Column.of(BigDecimal.class)));

    private static final MultiRowInsert RESPONSES = new MultiRowInsert("""
            INSERT INTO responses (execution_id, run_id, project_id, prompt_id, platform, prompt_text, answer_text,
                completed_at, retain_until, ad_capture_measured, ads, ad_count, citations, brand_mentions, brand_visible)""",
            "ON CONFLICT (execution_id) DO NOTHING",
            List.of(Column.of(UUID.class), Column.of(UUID.class), Column.of(UUID.class), Column.of(UUID.class),
                    Column.of(String.class), Column.of(String.class), Column.of(String.class), Column.of(Instant.class),
                    Column.of(Instant.class), Column.of(Boolean.class), Column.jsonb(), Column.of(Integer.class),
                    Column.jsonb(), Column.jsonb(), Column.of(Boolean.class)));

    /** A run's place in capture order; runIds compare as PostgreSQL compares uuids (unsigned, byte by byte). */
    static final Comparator<Latest> CAPTURE_ORDER = Comparator.comparing(Latest::capturedOn)
            .thenComparing(Latest::completedAt)
            .thenComparing(Latest::runId, (a, b) -> {
                int high = Long.compareUnsigned(a.getMostSignificantBits(), b.getMostSignificantBits());
                return high != 0 ? high : Long.compareUnsigned(a.getLeastSignificantBits(), b.getLeastSignificantBits());
            });

    /** A project's latest completed run in capture order, with what visibility.changed reports of it. */
    record Latest(LocalDate capturedOn, Instant completedAt, UUID runId, VisibilityChanged.PreviousMetrics metrics) {

        static Latest of(TrackingRunCompleted run, RunMetrics metrics) {
            return new Latest(run.capturedOn(), micros(run.completedAt()), run.runId(),
                    new VisibilityChanged.PreviousMetrics(metrics.visibilityScore().doubleValue(), metrics.citationCount(),
                            metrics.brandMentionCount(), metrics.sampleCount(), run.capturedOn()));
        }
    }

    private final DatabaseClient db;
    private final OutboxWriter outbox;
    private final ObjectMapper mapper;
    private final VisibilityProperties properties;

    TrackingRunIngestion(DatabaseClient db, OutboxWriter outbox, ObjectMapper mapper, VisibilityProperties properties) {
        this.db = db;
        this.outbox = outbox;
        this.mapper = mapper;
        this.properties = properties;
    }

    /**
     * Applies the runs (claimed, in topic order) in the caller's transaction and answers what each
     * did, in their order.
     */
    public Mono<List<Outcome>> ingestAll(List<Traced<TrackingRunCompleted>> runs) {
        Map<UUID, Traced<TrackingRunCompleted>> byRun = new LinkedHashMap<>();
        for (Traced<TrackingRunCompleted> traced : runs) {
            byRun.putIfAbsent(traced.record().runId(), traced);
        }
        // each run's metrics once: the run's row and its visibility.changed both carry them
        Map<UUID, RunMetrics> metrics = new HashMap<>();
        byRun.forEach((runId, traced) -> metrics.put(runId, RunMetrics.of(traced.record().samples())));
        List<UUID> projects = byRun.values().stream().map(t -> t.record().projectId()).distinct().toList();
        // one project's runs are applied one batch at a time, whatever partition they came from
        return lockProjects(projects)
                .then(latestRuns(projects))
                .flatMap(latest -> insertRuns(byRun.values(), metrics).flatMap(inserted -> {
                    List<Traced<TrackingRunCompleted>> fresh = byRun.values().stream()
                            .filter(t -> inserted.contains(t.record().runId())).toList();
                    List<Outcome> outcomes = new ArrayList<>(runs.size());
                    List<Traced<PublicEvent<?>>> events = new ArrayList<>(2 * fresh.size());
                    for (Traced<TrackingRunCompleted> traced : runs) {
                        boolean first = byRun.get(traced.record().runId()) == traced;
                        outcomes.add(first && inserted.contains(traced.record().runId())
                                ? decide(traced, metrics.get(traced.record().runId()), latest, events) : Outcome.DUPLICATE_RUN);
                    }
                    return insertResponses(fresh).then(outbox.appendAll(events)).thenReturn(outcomes);
                }));
    }

    /** The run's events, given its project's latest run so far (which it may become). */
    private static Outcome decide(Traced<TrackingRunCompleted> traced, RunMetrics metrics, Map<UUID, Latest> latest,
            List<Traced<PublicEvent<?>>> events) {
        TrackingRunCompleted run = traced.record();
        String projectId = run.projectId().toString();
        events.add(new Traced<>(PublicEvent.of(EventName.SEARCH_TRACKING_COMPLETED, projectId, run.accountId(),
                new SearchTrackingCompleted(run.runId().toString(), run.finalStatus())), traced.traceparent()));
        if (!TrackingRunCompleted.COMPLETED.equals(run.finalStatus())) {
            return Outcome.FAILED_RUN;
        }
        Latest candidate = Latest.of(run, metrics);
        Latest previous = latest.get(run.projectId());
        if (previous != null && CAPTURE_ORDER.compare(candidate, previous) < 0) {
            return Outcome.OUT_OF_ORDER;
        }
        latest.put(run.projectId(), candidate);
        events.add(new Traced<>(PublicEvent.of(EventName.VISIBILITY_CHANGED, projectId, run.accountId(),
                new VisibilityChanged(run.runId().toString(), run.capturedOn(),
                        new VisibilityChanged.Metrics(metrics.visibilityScore().doubleValue(), metrics.citationCount(),
                                metrics.brandMentionCount(), metrics.sampleCount()),
                        previous == null ? null : previous.metrics())), traced.traceparent()));
        return Outcome.LATEST;
    }

    private Mono<Void> lockProjects(List<UUID> projects) {
        ArrayLiterals.Column keys = new ArrayLiterals.Column(projects.size(), 20);
        projects.stream().mapToLong(p -> p.getMostSignificantBits() ^ p.getLeastSignificantBits()).distinct().sorted()
                .forEach(keys::number);
        // in key order, so that two batches with the same projects cannot wait for each other
        return db.sql("SELECT pg_advisory_xact_lock(k) FROM (SELECT unnest(:keys::bigint[]) AS k ORDER BY 1) s")
                .bind("keys", keys.literal())
                .then();
    }

    /** The latest completed run of each project in capture order (projects without one are absent). */
    private Mono<Map<UUID, Latest>> latestRuns(List<UUID> projects) {
        ArrayLiterals.Column ids = new ArrayLiterals.Column(projects.size(), 37);
        projects.forEach(ids::uuid);
        return db.sql("""
                SELECT p.id AS project_id, r.captured_on, r.completed_at, r.run_id, r.visibility_score, r.citation_count,
                    r.brand_mention_count, r.sample_count
                FROM unnest(:projects::uuid[]) AS p (id)
                CROSS JOIN LATERAL (
                    SELECT * FROM tracking_runs
                    WHERE project_id = p.id AND final_status = 'completed'
                    ORDER BY captured_on DESC, completed_at DESC, run_id DESC
                    LIMIT 1) r""")
                .bind("projects", ids.literal())
                .map(row -> {
                    LocalDate capturedOn = row.get("captured_on", LocalDate.class);
                    return Map.entry(row.get("project_id", UUID.class), new Latest(capturedOn,
                            row.get("completed_at", Instant.class), row.get("run_id", UUID.class),
                            new VisibilityChanged.PreviousMetrics(row.get("visibility_score", BigDecimal.class).doubleValue(),
                                    row.get("citation_count", Integer.class), row.get("brand_mention_count", Integer.class),
                                    row.get("sample_count", Integer.class), capturedOn)));
                })
                .all()
                .collect(HashMap::new, (map, entry) -> map.put(entry.getKey(), entry.getValue()));
    }

    /** The run ids inserted (a run id stored before is not). */
    private Mono<Set<UUID>> insertRuns(Collection<Traced<TrackingRunCompleted>> runs, Map<UUID, RunMetrics> metrics) {
        List<Object[]> rows = new ArrayList<>(runs.size());
        for (Traced<TrackingRunCompleted> traced : runs) {
            TrackingRunCompleted run = traced.record();
            RunMetrics m = metrics.get(run.runId());
            rows.add(new Object[] {run.runId(), run.projectId(), run.accountId(), run.finalStatus(), run.capturedOn(),
                    run.startedAt() == null ? null : micros(run.startedAt()), micros(run.completedAt()),
                    m.sampleCount(), m.visibleSampleCount(), m.citationCount(), m.brandMentionCount(), m.visibilityScore()});
        }
        return RUNS.inserted(db, rows, "run_id", UUID.class);
    }

    private Mono<Long> insertResponses(List<Traced<TrackingRunCompleted>> runs) {
        Instant now = Instant.now();
        List<Object[]> rows = new ArrayList<>();
        for (Traced<TrackingRunCompleted> traced : runs) {
            TrackingRunCompleted run = traced.record();
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
        }
        return RESPONSES.execute(db, rows);
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
