package dev.visibility.actions.list;

import java.util.List;
import java.util.UUID;

import dev.visibility.actions.action.ActionStatus;
import dev.visibility.platform.query.QueryParams;
import dev.visibility.platform.web.Envelope;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * E3 {@code GET …/actions/list}: ascending portfolioRank, nulls last, ties by score, creation time
 * and id. Without {@code status} every status is listed, suggested first, then accepted, live and
 * archived, each group in that same order. A page beyond the last is an empty page. The pages are
 * kept rendered by {@link ActionListPages}.
 */
@RestController
class ActionListController {

    static final int MAX_PAGE_SIZE = 100;
    static final int DEFAULT_PAGE_SIZE = 25;
    static final List<String> DETAIL_LEVELS = List.of("summary", "context");

    private final ActionListPages pages;

    ActionListController(ActionListPages pages) {
        this.pages = pages;
    }

    @GetMapping(path = "/api/v2/projects/{projectId}/actions/list", produces = MediaType.APPLICATION_JSON_VALUE)
    @Parameter(in = ParameterIn.QUERY, name = "detailLevel", description = "summary, or context for each action's context and follow-ups",
            schema = @Schema(type = "string", allowableValues = {"summary", "context"}, defaultValue = "summary"))
    @Parameter(in = ParameterIn.QUERY, name = "status", description = "only actions in this status (spec 3); every status when absent",
            schema = @Schema(type = "string", allowableValues = {"suggested", "accepted", "live", "archived"}))
    @Parameter(in = ParameterIn.QUERY, name = "page", description = "page number, from 1; a page beyond the last is empty",
            schema = @Schema(type = "integer", minimum = "1", defaultValue = "1"))
    @Parameter(in = ParameterIn.QUERY, name = "pageSize", description = "actions per page (spec 8)",
            schema = @Schema(type = "integer", minimum = "1", maximum = "100", defaultValue = "25"))
    @ApiResponse(responseCode = "200", description = "OK",
            content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = ActionListEnvelope.class)))
    Mono<Envelope<RenderedJson>> list(@PathVariable String projectId, ServerWebExchange exchange) {
        UUID project = QueryParams.pathUuid("projectId", projectId);
        QueryParams query = QueryParams.of(exchange.getRequest().getQueryParams());
        boolean context = "context".equals(query.oneOf("detailLevel", DETAIL_LEVELS, "summary"));
        String status = query.oneOf("status", ActionStatus.WIRE_NAMES, null);
        int pageNumber = query.intAtLeast("page", 1, 1);
        int pageSize = query.intInRange("pageSize", 1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE);
        Integer statusOrder = status == null ? null : ActionStatus.fromWire(status).ordinal();
        return pages.page(project, statusOrder, pageNumber, pageSize, context)
                .map(data -> Envelope.of(data, projectId));
    }
}
