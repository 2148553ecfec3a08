package dev.visibility.actions.brief;

import java.util.List;
import java.util.UUID;

import dev.visibility.actions.action.ActionEntity;
import dev.visibility.actions.action.ActionRepository;
import dev.visibility.platform.error.NotFound;
import dev.visibility.platform.query.QueryParams;
import dev.visibility.platform.web.Envelope;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/** {@code GET …/actions/{actionId}/brief}: the action's implementation brief and whether it is current. */
@RestController
class ActionBriefController {

    private final ActionRepository actions;

    ActionBriefController(ActionRepository actions) {
        this.actions = actions;
    }

    @GetMapping(path = "/api/v2/projects/{projectId}/actions/{actionId}/brief", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<Envelope<ActionBriefView>> brief(@PathVariable String projectId, @PathVariable String actionId) {
        UUID project = QueryParams.pathUuid("projectId", projectId);
        UUID action = QueryParams.pathUuid("actionId", actionId);
        return actions.find(project, action)
                .switchIfEmpty(Mono.error(() -> new NotFound("No action " + actionId + " in this project")))
                .map(a -> Envelope.of(view(a), projectId));
    }

    static ActionBriefView view(ActionEntity a) {
        boolean has = a.brief != null;
        ActionBriefView.Readiness readiness = new ActionBriefView.Readiness(has, a.briefStatus(),
                has ? a.brief.generatedAt() : null, has ? a.brief.updatedAt() : null, BriefRules.canGenerateBrief(a),
                a.highStakes);
        ActionBriefView.Content content = has
                ? new ActionBriefView.Content(a.brief.summary(), a.brief.steps() == null ? List.of() : a.brief.steps())
                : null;
        return new ActionBriefView(a.id, a.title, a.status, readiness, content);
    }
}
