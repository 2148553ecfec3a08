package dev.visibility.traffic.adoption;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;

import dev.visibility.platform.events.AdoptionMetricSampled;
import dev.visibility.platform.query.QueryParams;
import dev.visibility.platform.web.Envelope;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Schema;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * E5 {@code GET /api/v2/projects/{projectId}/adoption/metrics} ({@code adoption.read}): the
 * samples captured in the window ({@code days} 30 or 90, default 30, ending today in UTC), of one
 * {@code metric} when given, primary domain first, then by domain, metric, source and capture time;
 * and every domain of the project, primary first.
 */
@RestController
class AdoptionMetricsController {

    static final List<Integer> WINDOWS = List.of(30, 90);

    private final DatabaseClient db;
    private final Clock clock;

    AdoptionMetricsController(DatabaseClient db, Clock clock) {
        this.db = db;
        this.clock = clock;
    }

    @GetMapping(path = "/api/v2/projects/{projectId}/adoption/metrics", produces = MediaType.APPLICATION_JSON_VALUE)
    @Parameter(in = ParameterIn.QUERY, name = "days", description = "rolling window in days (spec 8)",
            schema = @Schema(type = "integer", allowableValues = {"30", "90"}, defaultValue = "30"))
    @Parameter(in = ParameterIn.QUERY, name = "metric", description = "only this metric",
            schema = @Schema(type = "string", allowableValues = {"code_host_stars", "weekly_downloads"}))
    Mono<Envelope<AdoptionMetrics>> metrics(@PathVariable String projectId, ServerWebExchange exchange) {
        UUID project = QueryParams.pathUuid("projectId", projectId);
        QueryParams params = QueryParams.of(exchange.getRequest().getQueryParams());
        int days = params.intOneOf("days", WINDOWS, 30);
        String metric = params.oneOf("metric", AdoptionMetricSampled.METRICS, null);
        LocalDate from = LocalDate.now(clock).minusDays(days - 1L);

        Mono<List<AdoptionMetrics.Metric>> metrics = db.sql("""
                SELECT s.domain, coalesce(d.is_primary, false) AS is_primary, s.metric, s.source, s.value, s.captured_at
                FROM adoption_samples s LEFT JOIN domains d ON d.project_id = s.project_id AND d.domain = s.domain
                WHERE s.project_id = :project AND s.captured_at >= :from AND (:metric = '' OR s.metric = :metric)
                ORDER BY coalesce(d.is_primary, false) DESC, s.domain, s.metric, s.source, s.captured_at""")
                .bind("project", project).bind("from", from.atStartOfDay().toInstant(ZoneOffset.UTC))
                .bind("metric", metric == null ? "" : metric)
                .map(row -> new AdoptionMetrics.Metric(row.get("domain", String.class),
                        Boolean.TRUE.equals(row.get("is_primary", Boolean.class)), row.get("metric", String.class),
                        row.get("source", String.class), row.get("value", BigDecimal.class),
                        row.get("captured_at", OffsetDateTime.class).toInstant()))
                .all().collectList();
        Mono<List<AdoptionMetrics.Domain>> domains = db.sql("""
                SELECT id, domain, is_primary FROM domains WHERE project_id = :project
                ORDER BY is_primary DESC, domain""")
                .bind("project", project)
                .map(row -> new AdoptionMetrics.Domain(row.get("id", UUID.class).toString(), row.get("domain", String.class),
                        Boolean.TRUE.equals(row.get("is_primary", Boolean.class))))
                .all().collectList();
        return Mono.zip(metrics, domains).map(both -> Envelope.of(new AdoptionMetrics(both.getT1(), both.getT2()), projectId));
    }
}
