package dev.visibility.visibility.responses;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.UUID;

import dev.visibility.platform.cursor.CursorCodec;
import dev.visibility.platform.error.InvalidParameter;
import dev.visibility.platform.error.NotFound;
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
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.ObjectMapper;

/**
 * The recent-responses listing ({@code GET …/visibility/responses}) and E12
 * ({@code GET …/visibility/responses/{executionId}}), both {@code visibility.read}.
 *
 * <p>The listing is keyset-paged by (completedAt, executionId), newest first; {@code limit} 1 to
 * 100 (default 50), {@code cursor} from the previous page, bound to the project, the filters
 * ({@code platform}, {@code promptId}) and the limit. E12 answers {@code {data}} without meta; an
 * unknown execution or one of another project is 404.
 */
@RestController
class ResponsesController {

    static final int MAX_LIMIT = 100;
    static final int DEFAULT_LIMIT = 50;
    private static final TypeReference<List<RetainedResponse.Ad>> ADS = new TypeReference<>() {
    };

    private final DatabaseClient db;
    private final CursorCodec cursors;
    private final ObjectMapper mapper;

    ResponsesController(DatabaseClient db, CursorCodec cursors, ObjectMapper mapper) {
        this.db = db;
        this.cursors = cursors;
        this.mapper = mapper;
    }

    @GetMapping(path = "/api/v2/projects/{projectId}/visibility/responses", produces = MediaType.APPLICATION_JSON_VALUE)
    @Parameter(in = ParameterIn.QUERY, name = "limit", description = "page size",
            schema = @Schema(type = "integer", minimum = "1", maximum = "100", defaultValue = "50"))
    @Parameter(in = ParameterIn.QUERY, name = "platform", description = "only answers of this AI platform",
            schema = @Schema(type = "string", maxLength = 100))
    @Parameter(in = ParameterIn.QUERY, name = "promptId", description = "only answers to this prompt",
            schema = @Schema(type = "string", format = "uuid"))
    @Parameter(in = ParameterIn.QUERY, name = "cursor", description = "the nextCursor of the previous page; at most 2000 characters, valid only with the same filters",
            schema = @Schema(type = "string", maxLength = 2000))
    Mono<Envelope<ResponseList>> list(@PathVariable String projectId, ServerWebExchange exchange) {
        UUID project = QueryParams.pathUuid("projectId", projectId);
        QueryParams query = QueryParams.of(exchange.getRequest().getQueryParams());
        int limit = query.intInRange("limit", 1, MAX_LIMIT, DEFAULT_LIMIT);
        String platform = query.text("platform", 100, null, null);
        UUID promptId = query.uuid("promptId");
        String scope = CursorCodec.fingerprint("visibility-responses", project, platform, promptId, limit);
        String cursor = query.raw(CursorCodec.PARAMETER);
        Position after = cursor == null ? null : Position.parse(cursors.decode(cursor, scope).position());

        StringBuilder sql = new StringBuilder("""
                SELECT execution_id, run_id, prompt_id, platform, completed_at, ad_capture_measured, ad_count,
                       (answer_text IS NOT NULL AND retain_until > now()) AS retained
                FROM responses WHERE project_id = :project""");
        if (platform != null) {
            sql.append(" AND platform = :platform");
        }
        if (promptId != null) {
            sql.append(" AND prompt_id = :promptId");
        }
        if (after != null) {
            sql.append(" AND (completed_at, execution_id) < (:afterAt, :afterId)");
        }
        sql.append(" ORDER BY completed_at DESC, execution_id DESC LIMIT :fetch");
        DatabaseClient.GenericExecuteSpec spec = db.sql(sql.toString()).bind("project", project).bind("fetch", limit + 1);
        if (platform != null) {
            spec = spec.bind("platform", platform);
        }
        if (promptId != null) {
            spec = spec.bind("promptId", promptId);
        }
        if (after != null) {
            spec = spec.bind("afterAt", after.completedAt()).bind("afterId", after.executionId());
        }
        return spec.map(ResponsesController::item).all().collectList().map(rows -> {
            boolean hasMore = rows.size() > limit;
            List<ResponseList.Item> page = hasMore ? rows.subList(0, limit) : rows;
            String next = null;
            if (hasMore) {
                ResponseList.Item last = page.get(page.size() - 1);
                next = cursors.encode(scope, last.completedAt() + "|" + last.executionId());
            }
            return Envelope.of(new ResponseList(List.copyOf(page), new ResponseList.Pagination(hasMore, next, limit)), projectId);
        });
    }

    @GetMapping(path = "/api/v2/projects/{projectId}/visibility/responses/{executionId}", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<DataOnly<RetainedResponse>> one(@PathVariable String projectId, @PathVariable String executionId) {
        UUID project = QueryParams.pathUuid("projectId", projectId);
        UUID execution = QueryParams.pathUuid("executionId", executionId);
        return db.sql("""
                SELECT execution_id, prompt_id, platform, completed_at, ad_capture_measured, ads::text AS ads,
                       CASE WHEN retain_until > now() THEN answer_text END AS answer_text
                FROM responses WHERE execution_id = :execution AND project_id = :project""")
                .bind("execution", execution).bind("project", project)
                .map(row -> {
                    String answer = row.get("answer_text", String.class);
                    return new RetainedResponse(row.get("execution_id", UUID.class), row.get("prompt_id", UUID.class),
                            row.get("platform", String.class), answer == null ? "" : answer,
                            row.get("completed_at", Instant.class), answer != null,
                            Boolean.TRUE.equals(row.get("ad_capture_measured", Boolean.class)),
                            mapper.readValue(row.get("ads", String.class), ADS));
                })
                .one()
                .switchIfEmpty(Mono.error(() -> new NotFound("No retained response " + execution + " in this project")))
                .map(DataOnly::new);
    }

    private static ResponseList.Item item(Readable row) {
        return new ResponseList.Item(row.get("execution_id", UUID.class), row.get("run_id", UUID.class),
                row.get("prompt_id", UUID.class), row.get("platform", String.class), row.get("completed_at", Instant.class),
                Boolean.TRUE.equals(row.get("retained", Boolean.class)),
                Boolean.TRUE.equals(row.get("ad_capture_measured", Boolean.class)), row.get("ad_count", Integer.class));
    }

    /** Where a page ends: the last item's completion time and execution id. */
    record Position(Instant completedAt, UUID executionId) {

        static Position parse(String position) {
            int bar = position.indexOf('|');
            try {
                return new Position(Instant.parse(position.substring(0, bar)), UUID.fromString(position.substring(bar + 1)));
            } catch (DateTimeParseException | IllegalArgumentException | StringIndexOutOfBoundsException e) {
                throw new InvalidParameter(CursorCodec.PARAMETER, "Parameter 'cursor' is not a cursor of this listing");
            }
        }
    }
}
