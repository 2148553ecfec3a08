package dev.visibility.visibility.agentpicks;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import dev.visibility.platform.cursor.CursorCodec;
import dev.visibility.platform.error.Forbidden;
import dev.visibility.platform.error.InvalidParameter;
import dev.visibility.platform.error.NotFound;
import dev.visibility.platform.events.AgentPicksRunRecorded;
import dev.visibility.platform.query.QueryParams;
import dev.visibility.platform.security.reactive.CurrentCaller;
import dev.visibility.platform.web.Envelope;
import dev.visibility.visibility.agentpicks.AgentPicksRunDetail.Context;
import dev.visibility.visibility.agentpicks.AgentPicksRunDetail.Detail;
import dev.visibility.visibility.agentpicks.AgentPicksRunDetail.Environment;
import dev.visibility.visibility.agentpicks.AgentPicksRunDetail.Evidence;
import dev.visibility.visibility.agentpicks.AgentPicksRunDetail.Item;
import dev.visibility.visibility.agentpicks.AgentPicksRunDetail.Pagination;
import dev.visibility.visibility.agentpicks.AgentPicksRunDetail.Pick;
import dev.visibility.visibility.agentpicks.AgentPicksRunDetail.Run;
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
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.ObjectMapper;

/**
 * E1 {@code GET …/agent-picks/tests/{testId}/runs/{runId}}: the run detail of spec 2.2.
 * <ol>
 * <li>Needs the {@code agent-picks} feature (403, reason {@code feature_not_enabled}) and
 * {@code visibility.read} (checked by the gateway).</li>
 * <li>The run must belong to the caller's account, the path's project and the path's test
 * together; anything else is 404. Runs of all five states are returned.</li>
 * <li>Evidence is ordered by seq, then id, keyset-paged inside {@code evidence.pagination}:
 * {@code limit} 1–100 (default 50), {@code cursor} bound to project, test, run and limit.</li>
 * <li>Withholding: {@link Withholding}.</li>
 * </ol>
 * Availability: {@code not_retained} while the run has no retained evidence item (also a running
 * run before its first event); {@code end_of_trail} once items exist and the producer marked the
 * trail final; {@code recorded} while items exist and more may come.
 */
@RestController
class AgentPicksRunController {

    static final String FEATURE = "agent-picks";
    static final int MAX_LIMIT = 100;
    static final int DEFAULT_LIMIT = 50;
    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {
    };

    private final DatabaseClient db;
    private final CursorCodec cursors;
    private final ObjectMapper mapper;
    private final Withholding withholding;

    AgentPicksRunController(DatabaseClient db, CursorCodec cursors, ObjectMapper mapper, Withholding withholding) {
        this.db = db;
        this.cursors = cursors;
        this.mapper = mapper;
        this.withholding = withholding;
    }

    @GetMapping(path = "/api/v2/projects/{projectId}/agent-picks/tests/{testId}/runs/{runId}",
            produces = MediaType.APPLICATION_JSON_VALUE)
    @Parameter(in = ParameterIn.QUERY, name = "limit", description = "evidence page size (spec 8)",
            schema = @Schema(type = "integer", minimum = "1", maximum = "100", defaultValue = "50"))
    @Parameter(in = ParameterIn.QUERY, name = "cursor", description = "the nextCursor of the previous page; at most 2000 characters, valid only with the same filters",
            schema = @Schema(type = "string", maxLength = 2000))
    Mono<Envelope<AgentPicksRunDetail>> run(@PathVariable String projectId, @PathVariable String testId,
            @PathVariable String runId, ServerWebExchange exchange) {
        return CurrentCaller.get().flatMap(caller -> {
            if (!caller.hasFeature(FEATURE)) {
                return Mono.error(new Forbidden("This project does not have the agent-picks feature", "feature_not_enabled"));
            }
            UUID project = QueryParams.pathUuid("projectId", projectId);
            UUID test = QueryParams.pathUuid("testId", testId);
            UUID run = QueryParams.pathUuid("runId", runId);
            QueryParams query = QueryParams.of(exchange.getRequest().getQueryParams());
            int limit = query.intInRange("limit", 1, MAX_LIMIT, DEFAULT_LIMIT);
            String scope = CursorCodec.fingerprint("agent-picks-evidence", project, test, run, limit);
            String cursor = query.raw(CursorCodec.PARAMETER);
            Position after = cursor == null ? null : Position.parse(cursors.decode(cursor, scope).position());

            return loadRun(project, test, run, caller.accountId())
                    .switchIfEmpty(Mono.error(() -> new NotFound("No agent-picks run " + run + " of test " + test + " in this project")))
                    .flatMap(stored -> evidencePage(run, after, limit).collectList()
                            .flatMap(rows -> availability(run, rows, stored.trailComplete())
                                    .map(availability -> detail(stored, rows, availability, limit, scope))))
                    .map(detail -> Envelope.of(detail, projectId));
        });
    }

    private Mono<StoredRun> loadRun(UUID project, UUID test, UUID run, String accountId) {
        if (accountId == null) {
            return Mono.empty();
        }
        return db.sql("""
                SELECT r.run_id, r.test_id, t.kind AS test_kind, t.status AS test_status, r.agent, r.model, r.repetition,
                       r.status, r.created_at, r.started_at, r.completed_at, r.early_stopped, r.wall_ms, r.has_error,
                       r.environment::text AS environment, r.request_text IS NOT NULL AS has_request, r.intent,
                       r.job_text IS NOT NULL AS has_job, r.classifier_version, r.agent_timeout_sec,
                       r.classification::text AS classification, r.trail_complete
                FROM agentpicks_runs r JOIN agentpicks_tests t ON t.test_id = r.test_id
                WHERE r.run_id = :run AND r.test_id = :test AND r.project_id = :project AND r.account_id = :account
                  AND t.project_id = :project AND t.account_id = :account""")
                .bind("run", run).bind("test", test).bind("project", project).bind("account", accountId)
                .map(this::storedRun)
                .one();
    }

    private StoredRun storedRun(Readable row) {
        String environment = row.get("environment", String.class);
        String classification = row.get("classification", String.class);
        Run run = new Run(row.get("run_id", UUID.class), row.get("test_id", UUID.class), row.get("test_kind", String.class),
                row.get("test_status", String.class), row.get("agent", String.class), row.get("model", String.class),
                row.get("repetition", Integer.class), row.get("status", String.class), row.get("created_at", Instant.class),
                row.get("started_at", Instant.class), row.get("completed_at", Instant.class),
                Boolean.TRUE.equals(row.get("early_stopped", Boolean.class)), row.get("wall_ms", Long.class),
                Boolean.TRUE.equals(row.get("has_error", Boolean.class)));
        AgentPicksRunRecorded.Environment env = environment == null ? null
                : mapper.readValue(environment, AgentPicksRunRecorded.Environment.class);
        Context context = new Context(
                env == null ? null : new Environment(env.id(), env.slug(), env.name(), env.framework()),
                Boolean.TRUE.equals(row.get("has_request", Boolean.class)),
                Boolean.TRUE.equals(row.get("has_job", Boolean.class)),
                null, row.get("intent", String.class), null, row.get("classifier_version", String.class),
                row.get("agent_timeout_sec", Double.class));
        Pick pick = classification == null ? null
                : pick(mapper.readValue(classification, AgentPicksRunRecorded.Classification.class));
        return new StoredRun(run, context, pick, Boolean.TRUE.equals(row.get("trail_complete", Boolean.class)));
    }

    private Pick pick(AgentPicksRunRecorded.Classification c) {
        Withholding.Filtered packages = withholding.catalogOnly(c.toolPackages());
        Withholding.Filtered otherTools = withholding.catalogOnly(c.otherTools());
        return new Pick(c.outcome(), c.toolKey(), c.toolDisplayName(), c.toolBrandDomain(), c.confidence(),
                c.classifierVersion(), c.decidedBy(), packages.withheld(), packages.kept(), otherTools.withheld(),
                otherTools.kept(), c.diffTruncated());
    }

    private reactor.core.publisher.Flux<Item> evidencePage(UUID run, Position after, int limit) {
        String sql = """
                SELECT id, seq, kind, url, status_code, recorded_at, observed_at, queries::text AS queries,
                       path IS NOT NULL AS has_path, packages::text AS packages, source, method, exit_code, failed,
                       command IS NOT NULL AS has_command, (text IS NOT NULL OR error_text IS NOT NULL) AS has_text
                FROM agentpicks_evidence WHERE run_id = :run""" + (after == null ? "" : " AND (seq, id) > (:seq, :id)")
                + " ORDER BY seq, id LIMIT :fetch";
        DatabaseClient.GenericExecuteSpec spec = db.sql(sql).bind("run", run).bind("fetch", limit + 1);
        if (after != null) {
            spec = spec.bind("seq", after.seq()).bind("id", after.id());
        }
        return spec.map(this::item).all();
    }

    private Item item(Readable row) {
        List<String> queries = mapper.readValue(row.get("queries", String.class), STRINGS);
        Withholding.Filtered packages = withholding.catalogOnly(mapper.readValue(row.get("packages", String.class), STRINGS));
        boolean textWithheld = !queries.isEmpty() || Boolean.TRUE.equals(row.get("has_path", Boolean.class))
                || Boolean.TRUE.equals(row.get("has_text", Boolean.class));
        Detail detail = new Detail(List.of(), null, packages.kept(), withholding.source(row.get("source", String.class)),
                Withholding.method(row.get("method", String.class)), row.get("exit_code", Integer.class),
                row.get("failed", Boolean.class), textWithheld, packages.withheld(),
                Boolean.TRUE.equals(row.get("has_command", Boolean.class)));
        return new Item(row.get("id", UUID.class), row.get("seq", Long.class), row.get("kind", String.class),
                Withholding.origin(row.get("url", String.class)), row.get("status_code", Integer.class),
                row.get("recorded_at", Instant.class), row.get("observed_at", Double.class), detail);
    }

    private Mono<String> availability(UUID run, List<Item> page, boolean trailComplete) {
        Mono<Boolean> any = page.isEmpty()
                ? db.sql("SELECT EXISTS (SELECT 1 FROM agentpicks_evidence WHERE run_id = :run)").bind("run", run)
                        .map(row -> row.get(0, Boolean.class)).one()
                : Mono.just(true);
        return any.map(exists -> !exists ? Evidence.NOT_RETAINED : trailComplete ? Evidence.END_OF_TRAIL : Evidence.RECORDED);
    }

    private AgentPicksRunDetail detail(StoredRun stored, List<Item> rows, String availability, int limit, String scope) {
        boolean hasMore = rows.size() > limit;
        List<Item> items = hasMore ? List.copyOf(rows.subList(0, limit)) : rows;
        String next = null;
        if (hasMore) {
            Item last = items.get(items.size() - 1);
            next = cursors.encode(scope, last.seq() + "|" + last.id());
        }
        return new AgentPicksRunDetail(stored.run(), stored.context(), stored.pick(),
                new Evidence(availability, items, new Pagination(hasMore, next, limit)));
    }

    private record StoredRun(Run run, Context context, Pick pick, boolean trailComplete) {
    }

    /** Where an evidence page ends: the last item's seq and id. */
    record Position(long seq, UUID id) {

        static Position parse(String position) {
            int bar = position.indexOf('|');
            try {
                return new Position(Long.parseLong(position.substring(0, bar)), UUID.fromString(position.substring(bar + 1)));
            } catch (IllegalArgumentException | StringIndexOutOfBoundsException e) {
                throw new InvalidParameter(CursorCodec.PARAMETER, "Parameter 'cursor' is not a cursor of this run's evidence");
            }
        }
    }
}
