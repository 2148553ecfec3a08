package dev.visibility.outcomes.whatworks;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

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
 * E7 {@code GET …/intelligence/what-works} (spec 2.8, E7 rules 1–5), read from
 * {@code what_works_daily}: closed 14-day improvements by the day their result became available,
 * channel and action type. Parameters (DESIGN.md): {@code days} 30 or 90 (default 30), {@code limit}
 * 1–20 (default 10) recommendations, one per channel, most improvements first.
 */
@RestController
class WhatWorksController {

    static final List<Integer> WINDOWS = List.of(30, 90);
    static final String NO_MARKED_INTERVENTIONS = "no_marked_interventions";
    static final String NO_CORRELATED_INTERVENTIONS = "no_correlated_interventions";
    static final String NO_ELIGIBLE_IMPROVEMENTS = "no_eligible_improvements";
    static final List<String> REQUIREMENTS = List.of(
            "Mark completed actions as interventions so that the measurement jobs measure them",
            "Let an intervention's 14-day window close: results become available 14 days after the change shipped",
            "At least one improved result in a closed 14-day window that became available in the reporting window");

    private final DatabaseClient db;
    private final Clock clock;

    WhatWorksController(DatabaseClient db) {
        this.db = db;
        this.clock = Clock.systemUTC();
    }

    @GetMapping(path = "/api/v2/projects/{projectId}/intelligence/what-works", produces = MediaType.APPLICATION_JSON_VALUE)
    @Parameter(in = ParameterIn.QUERY, name = "days", description = "rolling window in days (spec 8)",
            schema = @Schema(type = "integer", allowableValues = {"30", "90"}, defaultValue = "30"))
    @Parameter(in = ParameterIn.QUERY, name = "limit", description = "how many patterns (spec 8)",
            schema = @Schema(type = "integer", minimum = "1", maximum = "20", defaultValue = "10"))
    Mono<Envelope<WhatWorks>> whatWorks(@PathVariable String projectId, ServerWebExchange exchange) {
        UUID project = QueryParams.pathUuid("projectId", projectId);
        QueryParams query = QueryParams.of(exchange.getRequest().getQueryParams());
        int days = query.intOneOf("days", WINDOWS, 30);
        int limit = query.intInRange("limit", 1, 20, 10);
        LocalDate dateTo = LocalDate.now(clock);
        WhatWorks.Window window = new WhatWorks.Window(days, dateTo.minusDays(days - 1L), dateTo);
        return channels(project, window).flatMap(channels -> {
            if (!channels.isEmpty()) {
                List<WhatWorks.Recommendation> top = channels.stream().limit(limit).toList();
                return Mono.just(new WhatWorks(top, true, null, window));
            }
            return emptyState(project, window).map(empty -> new WhatWorks(List.of(), false, empty, window));
        }).map(data -> Envelope.of(data, projectId));
    }

    /** Rules 1–4: one recommendation per channel, from the rollup rows of the window. */
    private Mono<List<WhatWorks.Recommendation>> channels(UUID project, WhatWorks.Window window) {
        return db.sql("""
                SELECT channel, action_type, sum(improved) AS improved, sum(impact_sum) AS impact, sum(effect_sum) AS effect,
                       max(last_available_at) FILTER (WHERE improved > 0) AS latest
                FROM what_works_daily WHERE project_id = :project AND day BETWEEN :from AND :to
                GROUP BY channel, action_type HAVING sum(improved) > 0""")
                .bind("project", project).bind("from", window.dateFrom()).bind("to", window.dateTo())
                .map(row -> new Row(row.get("channel", String.class), row.get("action_type", String.class),
                        ((Number) row.get("improved")).longValue(), ((Number) row.get("impact")).doubleValue(),
                        ((Number) row.get("effect")).doubleValue(), row.get("latest", Instant.class)))
                .all().collectList()
                .map(WhatWorksController::byChannel);
    }

    static List<WhatWorks.Recommendation> byChannel(List<Row> rows) {
        Map<String, List<Row>> channels = new LinkedHashMap<>();
        for (Row r : rows) {
            channels.computeIfAbsent(r.channel(), k -> new ArrayList<>()).add(r);
        }
        List<WhatWorks.Recommendation> out = new ArrayList<>();
        channels.forEach((channel, list) -> {
            long n = list.stream().mapToLong(Row::improved).sum();
            double impact = list.stream().mapToDouble(Row::impact).sum() / n;
            double effect = list.stream().mapToDouble(Row::effect).sum() / n;
            Instant latest = list.stream().map(Row::latest).filter(java.util.Objects::nonNull).max(Comparator.naturalOrder())
                    .orElse(null);
            Row top = list.stream().max(Comparator.comparingLong(Row::improved)
                    .thenComparing(Row::actionType, Comparator.reverseOrder())).orElseThrow();
            out.add(new WhatWorks.Recommendation(text(channel, top.actionType(), top.improved(), n), channel, n,
                    round(impact), round(effect), latest));
        });
        out.sort(Comparator.comparingLong(WhatWorks.Recommendation::sampleSize).reversed()
                .thenComparing(Comparator.comparingDouble(WhatWorks.Recommendation::avgImpactScore).reversed())
                .thenComparing(WhatWorks.Recommendation::channel));
        return out;
    }

    static String text(String channel, String actionType, long typeCount, long total) {
        String label = channel.replace('_', ' ').replace('-', ' ');
        String base = "Keep shipping " + label + " changes: " + total + " improved in closed 14-day windows";
        if (actionType == null || actionType.isEmpty()) {
            return base;
        }
        return base + ", " + typeCount + " of them " + actionType.replace('_', ' ').replace('-', ' ') + " work";
    }

    /** Rule 5: the counts cover only the actions completed (moved to live) in the reporting window. */
    private Mono<WhatWorks.EmptyState> emptyState(UUID project, WhatWorks.Window window) {
        return db.sql("""
                SELECT count(i.intervention_id) AS marked,
                       count(i.intervention_id) FILTER (WHERE i.result IN ('improved', 'mixed', 'declined')) AS correlated
                FROM actions a JOIN interventions i ON i.project_id = a.project_id AND i.action_id = a.action_id
                WHERE a.project_id = :project AND a.completed_at >= :from AND a.completed_at < :to""")
                .bind("project", project)
                .bind("from", window.dateFrom().atStartOfDay().toInstant(ZoneOffset.UTC))
                .bind("to", window.dateTo().plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC))
                .map(row -> new long[] {((Number) row.get("marked")).longValue(), ((Number) row.get("correlated")).longValue()})
                .one()
                .map(c -> {
                    WhatWorks.Counts counts = new WhatWorks.Counts(c[0], c[1], 0);
                    String days = window.days() + " days";
                    if (c[0] == 0) {
                        return new WhatWorks.EmptyState(NO_MARKED_INTERVENTIONS, "No action completed in the last " + days
                                + " is marked as an intervention, so there is no measured evidence of what works yet.",
                                REQUIREMENTS, counts);
                    }
                    if (c[1] == 0) {
                        return new WhatWorks.EmptyState(NO_CORRELATED_INTERVENTIONS, "Interventions completed in the last "
                                + days + " have no conclusive result yet: their windows are still open, or showed no clear change.",
                                REQUIREMENTS, counts);
                    }
                    return new WhatWorks.EmptyState(NO_ELIGIBLE_IMPROVEMENTS, "Interventions completed in the last " + days
                            + " have conclusive results, but none improved in a closed 14-day window that became available"
                            + " in the window.", REQUIREMENTS, counts);
                });
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }

    record Row(String channel, String actionType, long improved, double impact, double effect, Instant latest) {
    }
}
