package dev.visibility.actions.history;

import java.util.List;
import java.util.UUID;

import dev.visibility.actions.action.ActionRepository;
import dev.visibility.platform.error.NotFound;
import dev.visibility.platform.query.QueryParams;
import dev.visibility.platform.web.Envelope;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Schema;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * {@code GET …/actions/{actionId}/events?page&pageSize}: who changed the action, what and when,
 * newest first, paged like E3 ({@code page} ≥ 1, {@code pageSize} 1–100, default 25).
 */
@RestController
class ActionHistoryController {

    private final ActionRepository actions;
    private final ActionHistory history;

    ActionHistoryController(ActionRepository actions, ActionHistory history) {
        this.actions = actions;
        this.history = history;
    }

    // one name per schema in the OpenAPI document (another record of this service is also called Data)
    @Schema(name = "ActionEventsData")
    record Data(UUID actionId, List<HistoryEntry> events, Pagination pagination) {
    }

    // one name per schema in the OpenAPI document (another record of this service is also called Pagination)
    @Schema(name = "ActionEventsPagination")
    record Pagination(int page, int pageSize, long totalCount, long totalPages) {
    }

    @GetMapping(path = "/api/v2/projects/{projectId}/actions/{actionId}/events", produces = MediaType.APPLICATION_JSON_VALUE)
    @Parameter(in = ParameterIn.QUERY, name = "page", description = "page number, from 1; a page beyond the last is empty",
            schema = @Schema(type = "integer", minimum = "1", defaultValue = "1"))
    @Parameter(in = ParameterIn.QUERY, name = "pageSize", description = "events per page",
            schema = @Schema(type = "integer", minimum = "1", maximum = "100", defaultValue = "25"))
    Mono<Envelope<Data>> events(@PathVariable String projectId, @PathVariable String actionId, ServerWebExchange exchange) {
        UUID project = QueryParams.pathUuid("projectId", projectId);
        UUID action = QueryParams.pathUuid("actionId", actionId);
        QueryParams query = QueryParams.of(exchange.getRequest().getQueryParams());
        int page = query.intAtLeast("page", 1, 1);
        int pageSize = query.intInRange("pageSize", 1, 100, 25);
        long offset = (long) (page - 1) * pageSize;
        return actions.find(project, action)
                .switchIfEmpty(Mono.error(() -> new NotFound("No action " + actionId + " in this project")))
                .flatMap(a -> history.count(action))
                .flatMap(total -> history.page(action, pageSize, offset).collectList()
                        .map(entries -> new Data(action, entries,
                                new Pagination(page, pageSize, total, (total + pageSize - 1) / pageSize))))
                .map(data -> Envelope.of(data, projectId));
    }
}
