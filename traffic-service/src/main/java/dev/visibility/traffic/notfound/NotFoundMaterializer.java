package dev.visibility.traffic.notfound;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeoutException;

import dev.visibility.platform.db.WakeableLoop;
import dev.visibility.traffic.config.TrafficProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.ObjectMapper;

/**
 * E11's materializer: for every project with 404s, sensors or an earlier materialization, clusters
 * the 404s of the window (the last {@value #WINDOW_DAYS} days, today included) against the prior
 * window of the same length, and stores the result with its state. It runs once at start and every
 * {@code suite.traffic.materialize-interval}. A project's failed run is recorded ({@code failed},
 * with an error that names what failed, never a value or a database message) and keeps the
 * clusters of its last successful run.
 */
@Component
public class NotFoundMaterializer implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(NotFoundMaterializer.class);
    public static final int WINDOW_DAYS = 7;
    static final Duration READ_LIMIT = Duration.ofSeconds(60);
    public static final String COMPLETED = "completed";
    public static final String FAILED = "failed";

    private final DatabaseClient db;
    private final Clock clock;
    private final TrafficProperties properties;
    private final ObjectMapper mapper;
    private Disposable loop;

    NotFoundMaterializer(DatabaseClient db, Clock clock, TrafficProperties properties, ObjectMapper mapper) {
        this.db = db;
        this.clock = clock;
        this.properties = properties;
        this.mapper = mapper;
    }

    @EventListener(ApplicationReadyEvent.class)
    void start() {
        loop = WakeableLoop.periodic(properties.materializeInterval(), Schedulers.boundedElastic())
                .start(() -> materializeAll().thenReturn(false),
                        e -> log.warn("The 404 materializer failed: {}", e.toString()));
    }

    @Override
    public void destroy() {
        if (loop != null) {
            loop.dispose();
        }
    }

    /** The current window: the last {@value #WINDOW_DAYS} days up to today (UTC). */
    public LocalDate[] window() {
        LocalDate end = LocalDate.now(clock);
        return new LocalDate[] {end.minusDays(WINDOW_DAYS - 1L), end};
    }

    /** Materializes every project once; answers how many succeeded. */
    public Mono<Long> materializeAll() {
        LocalDate[] window = window();
        LocalDate priorStart = window[0].minusDays(WINDOW_DAYS);
        return db.sql("""
                SELECT DISTINCT project_id FROM not_found_days WHERE day >= :from
                UNION SELECT project_id FROM sensor_sources
                UNION SELECT project_id FROM not_found_materializations""")
                .bind("from", priorStart)
                .map(row -> row.get("project_id", UUID.class))
                .all()
                .concatMap(project -> materialize(project, window[0], window[1]))
                .filter(Boolean::booleanValue)
                .count();
    }

    /** Materializes one project; a failure is recorded, not thrown. Answers whether it succeeded. */
    public Mono<Boolean> materialize(UUID project, LocalDate windowStart, LocalDate windowEnd) {
        Instant attempted = clock.instant();
        return db.sql("""
                SELECT path, bot_name,
                       coalesce(sum(requests) FILTER (WHERE day >= :start), 0) AS current,
                       coalesce(sum(requests) FILTER (WHERE day < :start), 0) AS prior
                FROM not_found_days
                WHERE project_id = :project AND day >= :priorStart AND day <= :end
                GROUP BY path, bot_name""")
                .bind("project", project).bind("start", windowStart).bind("end", windowEnd)
                .bind("priorStart", windowStart.minusDays(WINDOW_DAYS))
                .map(row -> new NotFoundClusters.PathCount(row.get("path", String.class), row.get("bot_name", String.class),
                        ((Number) row.get("current")).longValue(), ((Number) row.get("prior")).longValue()))
                .all().collectList()
                .timeout(READ_LIMIT)
                .map(rows -> NotFoundClusters.cluster(project, rows, windowStart, windowEnd, properties.relevantMinRequests()))
                .flatMap(result -> store(project, result, windowStart, windowEnd, attempted))
                .thenReturn(true)
                .onErrorResume(e -> recordFailure(project, e, attempted).thenReturn(false));
    }

    private Mono<Long> store(UUID project, NotFoundClusters.Result result, LocalDate windowStart, LocalDate windowEnd,
            Instant at) {
        String clusters = mapper.writeValueAsString(List.of(result.clusters(), result.suspectedNoiseClusters()));
        return db.sql("""
                INSERT INTO not_found_materializations AS m (project_id, status, window_start, window_end, completed_at,
                    attempted_at, last_error, cluster_count, request_count, clusters)
                VALUES (:project, 'completed', :start, :end, :at, :at, NULL, :clusterCount, :requestCount, :clusters::jsonb)
                ON CONFLICT (project_id) DO UPDATE SET status = 'completed', window_start = excluded.window_start,
                    window_end = excluded.window_end, completed_at = excluded.completed_at,
                    attempted_at = excluded.attempted_at, last_error = NULL, cluster_count = excluded.cluster_count,
                    request_count = excluded.request_count, clusters = excluded.clusters""")
                .bind("project", project).bind("start", windowStart).bind("end", windowEnd).bind("at", at)
                .bind("clusterCount", (int) result.clusterCount()).bind("requestCount", result.requestCount())
                .bind("clusters", clusters)
                .fetch().rowsUpdated();
    }

    private Mono<Void> recordFailure(UUID project, Throwable e, Instant at) {
        String error = describe(e);
        log.warn("Materializing the 404 clusters of project {} failed: {}", project, e.toString());
        return db.sql("""
                INSERT INTO not_found_materializations AS m (project_id, status, attempted_at, last_error)
                VALUES (:project, 'failed', :at, :error)
                ON CONFLICT (project_id) DO UPDATE SET status = 'failed', attempted_at = excluded.attempted_at,
                    last_error = excluded.last_error""")
                .bind("project", project).bind("at", at).bind("error", error)
                .fetch().rowsUpdated()
                .then()
                .onErrorResume(again -> {
                    log.warn("Recording the failure of project {} failed too: {}", project, again.toString());
                    return Mono.empty();
                });
    }

    /** What failed, in words fit for a customer: the kind of failure, never its message. */
    static String describe(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof TimeoutException) {
                return "materialization timed out reading the 404 window";
            }
            if (t instanceof DataAccessResourceFailureException || t instanceof io.r2dbc.spi.R2dbcTransientException
                    || t instanceof io.r2dbc.spi.R2dbcNonTransientResourceException) {
                return "materialization could not reach the traffic database";
            }
        }
        return "materialization failed reading the 404 window (internal error)";
    }
}
