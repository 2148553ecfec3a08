package dev.visibility.traffic.summary;

import java.time.Clock;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;

import dev.visibility.platform.error.InvalidParameter;
import dev.visibility.platform.events.TrafficHitObserved;
import dev.visibility.platform.query.QueryParams;
import dev.visibility.platform.web.Envelope;
import dev.visibility.traffic.hits.Scopes;
import dev.visibility.traffic.sensors.SensorStates;
import dev.visibility.traffic.summary.TrafficSummary.Window;
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
 * E4 {@code GET /api/v2/projects/{projectId}/traffic/summary} ({@code traffic.read}): hit and
 * session totals of the window ({@code days} 30 or 90, default 30, ending today in UTC) from the
 * per-day rollups of one scope (the project, a hostname, or a path prefix of a hostname: at most 91
 * rows), and the project-wide sensor state.
 */
@RestController
class TrafficSummaryController {

    static final List<Integer> WINDOWS = List.of(30, 90);
    static final Pattern HOSTNAME = Pattern.compile(TrafficHitObserved.HOSTNAME_PATTERN);
    /** A path: starts with /, no query, fragment or whitespace. */
    static final Pattern PATH = Pattern.compile("/[^?#\\s]*");

    private final DatabaseClient db;
    private final SensorStates sensors;
    private final Clock clock;

    TrafficSummaryController(DatabaseClient db, SensorStates sensors, Clock clock) {
        this.db = db;
        this.sensors = sensors;
        this.clock = clock;
    }

    @GetMapping(path = "/api/v2/projects/{projectId}/traffic/summary", produces = MediaType.APPLICATION_JSON_VALUE)
    @Parameter(in = ParameterIn.QUERY, name = "days", description = "rolling window in days (spec 8)",
            schema = @Schema(type = "integer", allowableValues = {"30", "90"}, defaultValue = "30"))
    @Parameter(in = ParameterIn.QUERY, name = "domain", description = "only this hostname, such as docs.example.com",
            schema = @Schema(type = "string", maxLength = 253))
    @Parameter(in = ParameterIn.QUERY, name = "pathPrefix", description = "only paths under this prefix (requires domain); starts with /, no query, fragment or whitespace",
            schema = @Schema(type = "string", maxLength = 2048, pattern = "^/[^?#\\s]*$"))
    Mono<Envelope<TrafficSummary>> summary(@PathVariable String projectId, ServerWebExchange exchange) {
        UUID project = QueryParams.pathUuid("projectId", projectId);
        QueryParams params = QueryParams.of(exchange.getRequest().getQueryParams());
        int days = params.intOneOf("days", WINDOWS, 30);
        String domain = params.text("domain", 253, HOSTNAME, "be a hostname such as docs.example.com");
        String pathPrefix = params.text("pathPrefix", 2048, PATH,
                "start with / and hold no query, fragment or whitespace");
        String prefix = Scopes.ROOT;
        if (pathPrefix != null) {
            if (domain == null) {
                throw new InvalidParameter("pathPrefix", "Parameter 'pathPrefix' requires the parameter 'domain'");
            }
            prefix = Scopes.normalizedPrefix(pathPrefix);
            if (prefix == null) {
                throw new InvalidParameter("pathPrefix",
                        "Parameter 'pathPrefix' may have at most " + Scopes.MAX_SEGMENTS + " segments");
            }
        }
        String hostname = domain == null ? Scopes.PROJECT : domain.toLowerCase(Locale.ROOT);
        LocalDate dateTo = LocalDate.now(clock);
        Window window = new Window(days, dateTo.minusDays(days - 1L), dateTo);

        // hits dated after dateTo (a sensor clock ahead by less than the accepted skew) count too
        Mono<long[]> totals = db.sql("""
                SELECT coalesce(sum(total_events), 0) AS total, coalesce(sum(bot_events), 0) AS bot,
                       coalesce(sum(referral_events), 0) AS referral, coalesce(sum(sessions), 0) AS sessions,
                       coalesce(sum(bot_sessions), 0) AS bot_sessions, coalesce(sum(referral_sessions), 0) AS referral_sessions
                FROM traffic_days
                WHERE project_id = :project AND hostname = :hostname AND prefix = :prefix AND day >= :from""")
                .bind("project", project).bind("hostname", hostname).bind("prefix", prefix).bind("from", window.dateFrom())
                .map(row -> new long[] {num(row.get("total")), num(row.get("bot")), num(row.get("referral")),
                        num(row.get("sessions")), num(row.get("bot_sessions")), num(row.get("referral_sessions"))})
                .one();
        return Mono.zip(totals, sensors.of(project)).map(both -> {
            long[] t = both.getT1();
            return Envelope.of(new TrafficSummary(t[0], t[1], t[2], t[3], t[4], t[5], both.getT2().state(), window),
                    projectId);
        });
    }

    private static long num(Object value) {
        return value == null ? 0 : ((Number) value).longValue();
    }
}
