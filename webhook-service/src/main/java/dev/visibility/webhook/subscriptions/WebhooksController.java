package dev.visibility.webhook.subscriptions;

import java.util.UUID;

import dev.visibility.platform.query.QueryParams;
import dev.visibility.platform.security.reactive.CurrentCaller;
import dev.visibility.platform.web.Envelope;
import dev.visibility.platform.web.RequestBodies;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * E13-E16. The gateway has checked the scope ({@code webhooks.write}, or {@code webhooks.read}
 * for the list) and the platform the project of the path; the project's id is the token's.
 */
@RestController
@RequestMapping("/api/v2/projects/{projectId}/webhooks")
class WebhooksController {

    private final WebhookSubscriptions webhooks;
    private final SubscriptionValidator validator;

    private final RequestBodies bodies;

    WebhooksController(WebhookSubscriptions webhooks, SubscriptionValidator validator, RequestBodies bodies) {
        this.webhooks = webhooks;
        this.validator = validator;
        this.bodies = bodies;
    }

    /** E13: 201 with the secret, which is never shown again (except by rotation). */
    @PostMapping
    // the status the ResponseEntity below sets, stated for the OpenAPI document (springdoc reads it)
    @ResponseStatus(HttpStatus.CREATED)
    Mono<ResponseEntity<Envelope<WebhookCreated>>> create(@PathVariable String projectId,
            @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, description = "the subscription (E13)",
                    content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = CreateWebhookRequest.class))) 
            @RequestBody(required = false) JsonNode body) {
        UUID project = QueryParams.pathUuid("projectId", projectId);
        SubscriptionValidator.Checked checked = validator.check(bodies.read(body, CreateWebhookRequest.class));
        return validator.checkDestination(checked)
                .then(CurrentCaller.get())
                .flatMap(caller -> webhooks.create(project, caller.accountId(), checked))
                .map(created -> ResponseEntity.status(HttpStatus.CREATED).body(Envelope.of(created, projectId)));
    }

    /** E14: only active subscriptions, never a secret. */
    @GetMapping
    Mono<Envelope<WebhookList>> list(@PathVariable String projectId) {
        return webhooks.list(QueryParams.pathUuid("projectId", projectId)).map(list -> Envelope.of(list, projectId));
    }

    /** E15: {@code {deleted: true}} without envelope; 404 for an unknown webhook or another project's. */
    @DeleteMapping("/{webhookId}")
    Mono<WebhookDeleted> delete(@PathVariable String projectId, @PathVariable String webhookId) {
        return webhooks.delete(QueryParams.pathUuid("projectId", projectId), QueryParams.pathUuid("webhookId", webhookId));
    }

    /** E16: no body; the old secret stops verifying at once; 404 when unknown, another project's or inactive. */
    @PostMapping("/{webhookId}/rotate-secret")
    Mono<Envelope<SecretRotated>> rotate(@PathVariable String projectId, @PathVariable String webhookId) {
        return webhooks.rotate(QueryParams.pathUuid("projectId", projectId), QueryParams.pathUuid("webhookId", webhookId))
                .map(rotated -> Envelope.of(rotated, projectId));
    }
}
