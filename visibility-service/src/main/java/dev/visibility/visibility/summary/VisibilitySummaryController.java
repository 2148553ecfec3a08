package dev.visibility.visibility.summary;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;

import dev.visibility.platform.query.QueryParams;
import dev.visibility.platform.web.Envelope;
import dev.visibility.visibility.summary.VisibilitySummary.Advertiser;
import dev.visibility.visibility.summary.VisibilitySummary.Advertising;
import dev.visibility.visibility.summary.VisibilitySummary.Change;
import dev.visibility.visibility.summary.VisibilitySummary.DayPoint;
import dev.visibility.visibility.summary.VisibilitySummary.PlatformAds;
import dev.visibility.visibility.summary.VisibilitySummary.RunPoint;
import dev.visibility.visibility.summary.VisibilitySummary.Window;
import dev.visibility.visibility.tracking.RunMetrics;
import io.r2dbc.spi.Readable;
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
 * {@code GET …/visibility/summary} ({@code visibility.read}): the latest metrics, their trend per
 * capture day over a window of {@code days} (30 or 90, default 30, ending today in UTC), and ad
 * rates from the ads captured on the answers completed in that window.
 */
@RestController
class VisibilitySummaryController {

    static final List<Integer> WINDOWS = List.of(30, 90);

    private final DatabaseClient db;
    private final Clock clock;

    VisibilitySummaryController(DatabaseClient db) {
        this.db = db;
        this.clock = Clock.systemUTC();
    }

    @GetMapping(path = "/api/v2/projects/{projectId}/visibility/summary", produces = MediaType.APPLICATION_JSON_VALUE)
    @Parameter(in = ParameterIn.QUERY, name = "days", description = "rolling window in days",
            schema = @Schema(type = "integer", allowableValues = {"30", "90"}, defaultValue = "30"))
    Mono<Envelope<VisibilitySummary>> summary(@PathVariable String projectId, ServerWebExchange exchange) {
        UUID project = QueryParams.pathUuid("projectId", projectId);
        int days = QueryParams.of(exchange.getRequest().getQueryParams()).intOneOf("days", WINDOWS, 30);
        LocalDate dateTo = LocalDate.now(clock);
        Window window = new Window(days, dateTo.minusDays(days - 1L), dateTo);

        Mono<List<RunPoint>> lastTwo = db.sql("""
                SELECT run_id, captured_on, visibility_score, citation_count, brand_mention_count, sample_count
                FROM tracking_runs WHERE project_id = :project AND final_status = 'completed'
                ORDER BY captured_on DESC, completed_at DESC, run_id DESC LIMIT 2""")
                .bind("project", project)
                .map(row -> new RunPoint(row.get("run_id", UUID.class).toString(), row.get("captured_on", LocalDate.class),
                        row.get("visibility_score", BigDecimal.class), num(row, "citation_count"),
                        num(row, "brand_mention_count"), num(row, "sample_count")))
                .all().collectList();
        Mono<List<DayPoint>> trend = db.sql("""
                SELECT captured_on, count(*) AS runs, sum(visible_sample_count) AS visible, sum(citation_count) AS citations,
                       sum(brand_mention_count) AS mentions, sum(sample_count) AS samples
                FROM tracking_runs
                WHERE project_id = :project AND final_status = 'completed' AND captured_on BETWEEN :from AND :to
                GROUP BY captured_on ORDER BY captured_on""")
                .bind("project", project).bind("from", window.dateFrom()).bind("to", window.dateTo())
                .map(row -> new DayPoint(row.get("captured_on", LocalDate.class), num(row, "runs"),
                        RunMetrics.score(num(row, "visible"), num(row, "samples")), num(row, "citations"),
                        num(row, "mentions"), num(row, "samples")))
                .all().collectList();
        Mono<List<PlatformAds>> platforms = db.sql("""
                SELECT platform, count(*) AS measured, count(*) FILTER (WHERE ad_count > 0) AS with_ads,
                       coalesce(sum(ad_count), 0) AS ads
                FROM responses
                WHERE project_id = :project AND ad_capture_measured AND completed_at >= :from AND completed_at < :until
                GROUP BY platform ORDER BY platform""")
                .bind("project", project).bind("from", window.dateFrom().atStartOfDay().toInstant(ZoneOffset.UTC))
                .bind("until", window.dateTo().plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC))
                .map(row -> new PlatformAds(row.get("platform", String.class), num(row, "measured"), num(row, "with_ads"),
                        rate(num(row, "with_ads"), num(row, "measured")), num(row, "ads")))
                .all().collectList();
        Mono<List<Advertiser>> advertisers = db.sql("""
                SELECT ad ->> 'domain' AS domain, count(*) AS ads
                FROM responses, jsonb_array_elements(ads) AS ad
                WHERE project_id = :project AND ad_capture_measured AND ad_count > 0
                  AND completed_at >= :from AND completed_at < :until AND ad ->> 'domain' <> ''
                GROUP BY 1 ORDER BY ads DESC, domain LIMIT 10""")
                .bind("project", project).bind("from", window.dateFrom().atStartOfDay().toInstant(ZoneOffset.UTC))
                .bind("until", window.dateTo().plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC))
                .map(row -> new Advertiser(row.get("domain", String.class), num(row, "ads")))
                .all().collectList();

        return Mono.zip(lastTwo, trend, platforms, advertisers).map(all -> {
            List<RunPoint> runs = all.getT1();
            RunPoint latest = runs.isEmpty() ? null : runs.get(0);
            RunPoint previous = runs.size() < 2 ? null : runs.get(1);
            Change change = previous == null ? null : new Change(latest.visibilityScore().subtract(previous.visibilityScore()),
                    latest.citationCount() - previous.citationCount(),
                    latest.brandMentionCount() - previous.brandMentionCount(),
                    latest.sampleCount() - previous.sampleCount());
            long measured = all.getT3().stream().mapToLong(PlatformAds::measuredSampleCount).sum();
            long withAds = all.getT3().stream().mapToLong(PlatformAds::samplesWithAdsCount).sum();
            long ads = all.getT3().stream().mapToLong(PlatformAds::adCount).sum();
            Advertising advertising = new Advertising(measured, withAds, rate(withAds, measured), ads, all.getT3(), all.getT4());
            return Envelope.of(new VisibilitySummary(latest, previous, change, all.getT2(), advertising, window), projectId);
        });
    }

    private static BigDecimal rate(long part, long whole) {
        return whole == 0 ? null : RunMetrics.score(part, whole);
    }

    private static long num(Readable row, String column) {
        Object value = row.get(column);
        return value == null ? 0 : ((Number) value).longValue();
    }
}
