package dev.visibility.actions.prompts;

import java.util.List;
import java.util.UUID;

import dev.visibility.actions.action.ActionEntity;
import dev.visibility.actions.action.ActionRepository;
import dev.visibility.actions.action.ActionStatus;
import dev.visibility.actions.brief.BriefRules;
import dev.visibility.platform.query.QueryParams;
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
 * E6 {@code GET …/actions/from-prompt?promptId=…[&includeHidden=true]}: up to 100 actions linked
 * to the prompt by stored evidence, in E3 order, as {@code {data: {hasMore, actions[]}}} with no meta.
 * Hidden (dismissed or withdrawn) suggestions are left out unless {@code includeHidden=true}.
 */
@RestController
class FromPromptController {

    static final int MAX_ACTIONS = 100;
    static final String RELATIONSHIP_EVIDENCE = "evidence";

    private final ActionRepository actions;

    FromPromptController(ActionRepository actions) {
        this.actions = actions;
    }

    record Body(Data data) {
    }

    // one name per schema in the OpenAPI document (another record of this service is also called Data)
    @Schema(name = "PromptLinkedActionsData")
    record Data(boolean hasMore, List<PromptLinkedAction> actions) {
    }

    @GetMapping(path = "/api/v2/projects/{projectId}/actions/from-prompt", produces = MediaType.APPLICATION_JSON_VALUE)
    @Parameter(in = ParameterIn.QUERY, name = "promptId", required = true, description = "the prompt whose linked actions are listed",
            schema = @Schema(type = "string", format = "uuid"))
    @Parameter(in = ParameterIn.QUERY, name = "includeHidden", description = "include actions hidden from the prompt view",
            schema = @Schema(type = "boolean", defaultValue = "false"))
    Mono<Body> fromPrompt(@PathVariable String projectId, ServerWebExchange exchange) {
        UUID project = QueryParams.pathUuid("projectId", projectId);
        QueryParams query = QueryParams.of(exchange.getRequest().getQueryParams());
        UUID promptId = query.requiredUuid("promptId");
        boolean includeHidden = query.bool("includeHidden", false);
        return actions.linkedToPrompt(project, promptId, includeHidden, MAX_ACTIONS + 1).collectList()
                .map(rows -> new Body(new Data(rows.size() > MAX_ACTIONS,
                        rows.stream().limit(MAX_ACTIONS).map(FromPromptController::item).toList())));
    }

    static PromptLinkedAction item(ActionEntity a) {
        boolean canRestore = a.hidden && a.statusEnum() == ActionStatus.ARCHIVED
                && ActionEntity.SUGGESTION_DISMISSED.equals(a.suggestionStatus);
        return new PromptLinkedAction(a.id, a.title, a.status, a.suggestionStatus, a.briefStatus(), a.hidden,
                BriefRules.canGenerateBrief(a), canRestore, a.highStakes, RELATIONSHIP_EVIDENCE, a.promptCount);
    }
}
