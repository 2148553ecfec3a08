package dev.visibility.actions.write;

import java.util.UUID;

import dev.visibility.actions.action.ActionView;
import dev.visibility.actions.action.ActionViews;
import dev.visibility.actions.action.Actor;
import dev.visibility.platform.query.QueryParams;
import dev.visibility.platform.web.RequestBodies;
import dev.visibility.platform.security.reactive.CurrentCaller;
import dev.visibility.platform.web.Envelope;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/** Action writes (DESIGN.md "Action writes", scope {@code actions.write}, checked by the gateway). */
@RestController
class ActionWriteController {

    private final ActionWriteService writes;
    private final RequestBodies bodies;

    ActionWriteController(ActionWriteService writes, RequestBodies bodies) {
        this.writes = writes;
        this.bodies = bodies;
    }

    @PostMapping(path = "/api/v2/projects/{projectId}/actions", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.CREATED)
    Mono<Envelope<ActionView>> create(@PathVariable String projectId,
            @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, description = "the action to create",
                    content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = NewAction.class))) @RequestBody(required = false) JsonNode body) {
        UUID project = QueryParams.pathUuid("projectId", projectId);
        NewAction action = bodies.read(body, NewAction.class);
        return CurrentCaller.get()
                .flatMap(caller -> writes.create(project, caller.accountId(), Actor.of(caller), action))
                .map(a -> Envelope.of(ActionViews.summary(a), projectId));
    }

    @PatchMapping(path = "/api/v2/projects/{projectId}/actions/{actionId}", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<Envelope<ActionView>> update(@PathVariable String projectId, @PathVariable String actionId,
            @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, description = "the fields to change; absent fields stay as they are",
                    content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = ActionPatchBody.class))) 
            @RequestBody(required = false) JsonNode body) {
        UUID project = QueryParams.pathUuid("projectId", projectId);
        UUID action = QueryParams.pathUuid("actionId", actionId);
        ActionPatch patch = bodies.read(body, ActionPatchBody.class).toPatch(body);
        return CurrentCaller.get()
                .flatMap(caller -> writes.update(project, action, caller.accountId(), Actor.of(caller), patch))
                .map(a -> Envelope.of(ActionViews.summary(a), projectId));
    }
}
