package dev.visibility.outcomes.ledger;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.outcomes.config.OutcomesProperties;
import dev.visibility.outcomes.ingest.Assessment;
import dev.visibility.platform.cursor.CursorCodec;
import dev.visibility.platform.error.ApiException;
import dev.visibility.platform.error.ErrorCode;
import dev.visibility.platform.error.InvalidParameter;
import dev.visibility.platform.events.OutcomeMeasured;
import dev.visibility.platform.query.QueryParams;
import dev.visibility.platform.web.Envelope;
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
import tools.jackson.databind.ObjectMapper;

/**
 * E2 {@code GET …/outcomes/ledger}: the results ledger of spec 2.3, read from the rollups kept at
 * ingestion. Parameters (DESIGN.md): {@code days} 7, 30, 90 or 365 (default 30), {@code impactWindows}
 * (boolean), {@code cursor}, {@code pageSize} 1–100 (default 50), {@code result} (one of
 * {@link #RESULT_FILTERS}). The reporting window selects interventions by the day they shipped
 * (UTC). Items are newest intervention first, keyset-paged; a cursor is bound to project,
 * {@code days}, {@code result} and {@code pageSize} and to the window's end date, and expires
 * 48 hours after issue (400, reason {@code cursor_expired}).
 */
@RestController
class LedgerController {

    static final List<Integer> WINDOWS = List.of(7, 30, 90, 365);
    static final List<Integer> IMPACT_WINDOWS = OutcomeMeasured.WINDOWS;
    static final List<Integer> CONVERSION_WINDOWS = List.of(30, 90);
    static final List<String> RESULT_FILTERS = List.of("measured", "in_flight", "blind", "unmatched_url", "sensor_gap",
            Assessment.IMPROVED, Assessment.MIXED, Assessment.NO_CLEAR_CHANGE, Assessment.DECLINED,
            Assessment.STILL_MEASURING, Assessment.UNMEASURED, "conclusive");
    static final int MAX_PAGE_SIZE = 100;
    static final int DEFAULT_PAGE_SIZE = 50;
    static final String CURSOR_EXPIRED = "cursor_expired";
    static final String UNTITLED = "Untitled action";

    private final DatabaseClient db;
    private final CursorCodec cursors;
    private final ObjectMapper mapper;
    private final OutcomesProperties properties;
    private final Clock clock;

    LedgerController(DatabaseClient db, CursorCodec cursors, ObjectMapper mapper, OutcomesProperties properties) {
        this.db = db;
        this.cursors = cursors;
        this.mapper = mapper;
        this.properties = properties;
        this.clock = Clock.systemUTC();
    }

    @GetMapping(path = "/api/v2/projects/{projectId}/outcomes/ledger", produces = MediaType.APPLICATION_JSON_VALUE)
    @Parameter(in = ParameterIn.QUERY, name = "days", description = "rolling window in days (spec 8)",
            schema = @Schema(type = "integer", allowableValues = {"7", "30", "90", "365"}, defaultValue = "30"))
    @Parameter(in = ParameterIn.QUERY, name = "impactWindows", description = "add the 7, 14, 30 and 90-day impact windows",
            schema = @Schema(type = "boolean", defaultValue = "false"))
    @Parameter(in = ParameterIn.QUERY, name = "pageSize", description = "ledger rows per page (spec 8)",
            schema = @Schema(type = "integer", minimum = "1", maximum = "100", defaultValue = "50"))
    @Parameter(in = ParameterIn.QUERY, name = "result", description = "only rows with this result or assessment",
            schema = @Schema(type = "string", allowableValues = {"measured", "in_flight", "blind", "unmatched_url", "sensor_gap", "improved", "mixed", "no_clear_change", "declined", "still_measuring", "unmeasured", "conclusive"}))
    @Parameter(in = ParameterIn.QUERY, name = "cursor", description = "the nextCursor of the previous page; at most 2000 characters, valid only with the same filters",
            schema = @Schema(type = "string", maxLength = 2000))
    Mono<Envelope<Ledger>> ledger(@PathVariable String projectId, ServerWebExchange exchange) {
        UUID project = QueryParams.pathUuid("projectId", projectId);
        QueryParams query = QueryParams.of(exchange.getRequest().getQueryParams());
        int days = query.intOneOf("days", WINDOWS, 30);
        boolean impactWindows = query.bool("impactWindows", false);
        int pageSize = query.intInRange("pageSize", 1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE);
        String result = query.oneOf("result", RESULT_FILTERS, null);
        String scope = CursorCodec.fingerprint("outcomes-ledger", project, days, result == null ? "" : result, pageSize);
        String cursor = query.raw(CursorCodec.PARAMETER);
        Position after = cursor == null ? null : position(cursor, scope);

        LocalDate today = LocalDate.now(clock);
        LocalDate dateTo = after == null ? today : after.dateTo();
        Ledger.Window window = new Ledger.Window(days, dateTo.minusDays(days - 1L), dateTo);

        Mono<Totals> totals = totals(project, window);
        Mono<List<Ledger.Item>> page = items(project, window, result, after, pageSize).collectList();
        Mono<List<Ledger.AttributedConversions>> conversions = conversions(project, today);
        Mono<List<Ledger.ImpactWindow>> impact = impactWindows ? impactWindows(project, window) : Mono.just(List.of());
        return Mono.zip(totals, page, conversions, impact).map(t -> {
            List<Ledger.Item> rows = t.getT2();
            boolean hasMore = rows.size() > pageSize;
            List<Ledger.Item> items = hasMore ? List.copyOf(rows.subList(0, pageSize)) : rows;
            String next = null;
            if (hasMore) {
                Ledger.Item last = items.get(items.size() - 1);
                Instant lastAt = last.resultAvailableAt().minus(java.time.Duration.ofDays(OutcomeMeasured.CANONICAL_WINDOW));
                next = cursors.encode(scope, dateTo + "|" + lastAt + "|" + last.interventionId());
            }
            Ledger ledger = new Ledger(t.getT3(), items,
                    new Ledger.Pagination(hasMore, next, pageSize, t.getT1().count(result)),
                    t.getT1().scoreboard(), window, impactWindows ? t.getT4() : null);
            return Envelope.of(ledger, projectId);
        });
    }

    private Position position(String cursor, String scope) {
        CursorCodec.Decoded decoded = cursors.decode(cursor, scope);
        if (!decoded.issuedAt().plus(properties.cursorTtl()).isAfter(clock.instant())) {
            throw new ApiException(ErrorCode.INVALID_REQUEST, 400,
                    "Parameter 'cursor' has expired (cursors are valid for 48 hours); start again without a cursor",
                    CURSOR_EXPIRED, Map.of());
        }
        return Position.parse(decoded.position());
    }

    // ---- scoreboard and counts: scoreboard_daily

    private Mono<Totals> totals(UUID project, Ledger.Window window) {
        return db.sql("""
                SELECT coalesce(sum(improved), 0) AS improved, coalesce(sum(mixed), 0) AS mixed,
                       coalesce(sum(no_clear_change), 0) AS no_clear_change, coalesce(sum(declined), 0) AS declined,
                       coalesce(sum(still_measuring), 0) AS still_measuring, coalesce(sum(unmeasured), 0) AS unmeasured,
                       coalesce(sum(in_flight), 0) AS in_flight, coalesce(sum(blind), 0) AS blind,
                       coalesce(sum(unmatched_url), 0) AS unmatched_url, coalesce(sum(sensor_gap), 0) AS sensor_gap,
                       coalesce(sum(citations_before), 0) AS citations_before,
                       coalesce(sum(citations_after), 0) AS citations_after
                FROM scoreboard_daily WHERE project_id = :project AND day BETWEEN :from AND :to""")
                .bind("project", project).bind("from", window.dateFrom()).bind("to", window.dateTo())
                .map(row -> {
                    Map<String, Long> counts = new HashMap<>();
                    for (String c : new String[] {"improved", "mixed", "no_clear_change", "declined", "still_measuring",
                        "unmeasured", "in_flight", "blind", "unmatched_url", "sensor_gap"}) {
                        counts.put(c, ((Number) row.get(c)).longValue());
                    }
                    return new Totals(counts, ((Number) row.get("citations_before")).doubleValue(),
                            ((Number) row.get("citations_after")).doubleValue());
                })
                .one();
    }

    record Totals(Map<String, Long> counts, double citationsBefore, double citationsAfter) {

        long get(String column) {
            return counts.get(column);
        }

        long conclusive() {
            return get(Assessment.IMPROVED) + get(Assessment.MIXED) + get(Assessment.DECLINED);
        }

        long count(String filter) {
            if (filter == null) {
                return Assessment.RESULTS.stream().mapToLong(this::get).sum();
            }
            return switch (filter) {
                case "measured" -> Assessment.MEASURED.stream().mapToLong(this::get).sum();
                case "conclusive" -> conclusive();
                default -> get(filter);
            };
        }

        Ledger.Scoreboard scoreboard() {
            long conclusive = conclusive();
            double rate = conclusive == 0 ? 0 : round((double) get(Assessment.IMPROVED) / conclusive);
            double lift = round((citationsAfter - citationsBefore) / Math.max(citationsBefore, 1.0));
            return new Ledger.Scoreboard(conclusive, get(Assessment.IMPROVED), get(Assessment.MIXED),
                    get(Assessment.NO_CLEAR_CHANGE), get(Assessment.DECLINED), get(Assessment.STILL_MEASURING),
                    get(Assessment.UNMEASURED), rate, lift);
        }
    }

    // ---- items: interventions, keyset

    private reactor.core.publisher.Flux<Ledger.Item> items(UUID project, Ledger.Window window, String result, Position after,
            int pageSize) {
        StringBuilder sql = new StringBuilder("""
                SELECT i.intervention_id, i.action_id, i.result, i.intervened_at, i.measured_at, i.canonical::text AS canonical,
                       a.title
                FROM interventions i LEFT JOIN actions a ON a.project_id = i.project_id AND a.action_id = i.action_id
                WHERE i.project_id = :project AND i.intervened_at >= :from AND i.intervened_at < :to""");
        sql.append(filter(result));
        if (after != null) {
            sql.append(" AND (i.intervened_at, i.intervention_id) < (:afterAt, :afterId)");
        }
        sql.append(" ORDER BY i.intervened_at DESC, i.intervention_id DESC LIMIT :fetch");
        DatabaseClient.GenericExecuteSpec spec = db.sql(sql.toString()).bind("project", project)
                .bind("from", window.dateFrom().atStartOfDay().toInstant(ZoneOffset.UTC))
                .bind("to", window.dateTo().plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC))
                .bind("fetch", pageSize + 1);
        if (after != null) {
            spec = spec.bind("afterAt", after.intervenedAt()).bind("afterId", after.interventionId());
        }
        return spec.map(this::item).all();
    }

    /** The result filter as SQL on the intervention's stored result and flags (README, "Result filter"). */
    static String filter(String result) {
        if (result == null) {
            return "";
        }
        return switch (result) {
            case "measured" -> " AND i.result IN ('improved', 'mixed', 'no_clear_change', 'declined')";
            case "conclusive" -> " AND i.result IN ('improved', 'mixed', 'declined')";
            case "in_flight" -> " AND i.in_flight";
            case "blind" -> " AND i.blind";
            case "unmatched_url" -> " AND i.unmatched_url";
            case "sensor_gap" -> " AND i.sensor_gap";
            // one of the six results, checked against RESULT_FILTERS before
            default -> " AND i.result = '" + Assessment.RESULTS.get(Assessment.RESULTS.indexOf(result)) + "'";
        };
    }

    private Ledger.Item item(Readable row) {
        String json = row.get("canonical", String.class);
        OutcomeMeasured m = json == null ? null : mapper.readValue(json, OutcomeMeasured.class);
        Instant intervenedAt = row.get("intervened_at", Instant.class);
        String title = row.get("title", String.class);
        OutcomeMeasured.Dimension c = m == null ? null : m.citations();
        OutcomeMeasured.Dimension a = m == null ? null : m.answerFetches();
        return new Ledger.Item(row.get("intervention_id", UUID.class), row.get("action_id", UUID.class),
                title == null ? UNTITLED : title, row.get("result", String.class),
                intervenedAt.plus(java.time.Duration.ofDays(OutcomeMeasured.CANONICAL_WINDOW)),
                row.get("measured_at", Instant.class),
                Assessment.confidence(m, c), Assessment.confidence(m, a),
                c == null ? null : num(c.before()), c == null ? null : num(c.after()),
                c == null ? null : num(c.after() - c.before()),
                a == null ? null : num(a.before()), a == null ? null : num(a.after()),
                a == null ? null : num(a.after() - a.before()),
                m == null ? null : analytics(m.analyticsComparison()),
                m == null ? null : new Ledger.Evidence(dimension(c), dimension(a), new Ledger.Rule(
                        num(m.rule().significance()), num(m.rule().minCount()), num(m.rule().minActiveDays()),
                        num(m.rule().minRelativeChange()))));
    }

    private static Ledger.AnalyticsComparison analytics(OutcomeMeasured.AnalyticsComparison ac) {
        if (ac == null) {
            return null;
        }
        Ledger.Traffic before = traffic(ac.before());
        Ledger.Traffic after = traffic(ac.after());
        OutcomeMeasured.Recorded r = ac.recorded();
        Ledger.Recorded recorded = r == null ? new Ledger.Recorded(before, after)
                : new Ledger.Recorded(r.before() == null ? before : traffic(r.before()),
                        r.after() == null ? after : traffic(r.after()));
        return new Ledger.AnalyticsComparison(ac.provider(), ac.connectionId(), ac.generation(), ac.definitionHash(),
                ac.sessionsCovered(), ac.conversionsCovered(), before, after, recorded);
    }

    private static Ledger.Traffic traffic(OutcomeMeasured.Traffic t) {
        return new Ledger.Traffic(t.sessions(), t.conversions());
    }

    private static Ledger.Dimension dimension(OutcomeMeasured.Dimension d) {
        return d == null ? null : new Ledger.Dimension(num(d.before()), num(d.after()), d.beforeActiveDays(),
                d.afterActiveDays(), num(d.beforeProbeAnswers()), num(d.afterProbeAnswers()), d.direction(), d.pValue());
    }

    // ---- attributed conversions: conversions_daily, the fixed 30- and 90-day windows

    private Mono<List<Ledger.AttributedConversions>> conversions(UUID project, LocalDate today) {
        return db.sql("""
                SELECT window_days, coalesce(sum(covered), 0) AS covered, coalesce(sum(conversions), 0) AS conversions
                FROM conversions_daily
                WHERE project_id = :project AND ((window_days = 30 AND day BETWEEN :from30 AND :to)
                                              OR (window_days = 90 AND day BETWEEN :from90 AND :to))
                GROUP BY window_days""")
                .bind("project", project).bind("from30", today.minusDays(29)).bind("from90", today.minusDays(89))
                .bind("to", today)
                .map(row -> new long[] {((Number) row.get("window_days")).longValue(), ((Number) row.get("covered")).longValue(),
                    Math.round(((Number) row.get("conversions")).doubleValue())})
                .all().collectList()
                .map(rows -> {
                    List<Ledger.AttributedConversions> out = new ArrayList<>();
                    for (int w : CONVERSION_WINDOWS) {
                        long[] found = rows.stream().filter(r -> r[0] == w && r[1] > 0).findFirst().orElse(null);
                        out.add(new Ledger.AttributedConversions(
                                "Conversions after minus before, " + w + "-day windows closed in the last " + w + " days",
                                found == null ? null : found[2], today.minusDays(w - 1L), today,
                                found == null ? Assessment.UNMEASURED : "measured", w));
                    }
                    return out;
                });
    }

    // ---- impact windows: impact_daily

    private Mono<List<Ledger.ImpactWindow>> impactWindows(UUID project, Ledger.Window window) {
        return db.sql("""
                SELECT window_days, sum(in_flight) AS in_flight, sum(cit_measured) AS cit_measured, sum(cit_delta) AS cit_delta,
                       sum(presence_delta) AS presence_delta, sum(af_measured) AS af_measured, sum(af_delta) AS af_delta
                FROM impact_daily WHERE project_id = :project AND day BETWEEN :from AND :to GROUP BY window_days""")
                .bind("project", project).bind("from", window.dateFrom()).bind("to", window.dateTo())
                .map(row -> new double[] {((Number) row.get("window_days")).doubleValue(),
                    ((Number) row.get("in_flight")).doubleValue(), ((Number) row.get("cit_measured")).doubleValue(),
                    ((Number) row.get("cit_delta")).doubleValue(), ((Number) row.get("presence_delta")).doubleValue(),
                    ((Number) row.get("af_measured")).doubleValue(), ((Number) row.get("af_delta")).doubleValue()})
                .all().collectList()
                .map(rows -> {
                    List<Ledger.ImpactWindow> out = new ArrayList<>();
                    for (int w : IMPACT_WINDOWS) {
                        double[] r = rows.stream().filter(x -> x[0] == w).findFirst().orElse(new double[7]);
                        long inFlight = (long) r[1];
                        long cit = (long) r[2];
                        long af = (long) r[5];
                        out.add(new Ledger.ImpactWindow(w, quality(cit, inFlight), cit == 0 ? null : round(r[3]),
                                cit == 0 ? null : round(r[4] / cit), quality(af, inFlight), af == 0 ? null : round(r[6])));
                    }
                    return out;
                });
    }

    /** strong from 30 measured windows, moderate from 10, weak below; still_measuring or unmeasured without any. */
    static String quality(long measured, long inFlight) {
        if (measured == 0) {
            return inFlight > 0 ? Assessment.STILL_MEASURING : Assessment.UNMEASURED;
        }
        return measured >= 30 ? "strong" : measured >= 10 ? "moderate" : "weak";
    }

    static double round(double value) {
        return Math.round(value * 10_000) / 10_000.0;
    }

    /** A count as an integer when it is whole, so that 12 reads as 12 and not 12.0. */
    static Number num(Double value) {
        if (value == null) {
            return null;
        }
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return value.longValue();
        }
        return value;
    }

    static Number num(Integer value) {
        return value;
    }

    /** Where a page ends: the window's end date, then the last item's intervention time and id. */
    record Position(LocalDate dateTo, Instant intervenedAt, UUID interventionId) {

        static Position parse(String position) {
            String[] parts = position.split("\\|");
            try {
                return new Position(LocalDate.parse(parts[0]), Instant.parse(parts[1]), UUID.fromString(parts[2]));
            } catch (DateTimeParseException | IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
                throw new InvalidParameter(CursorCodec.PARAMETER, "Parameter 'cursor' is not a cursor of this ledger");
            }
        }
    }
}
