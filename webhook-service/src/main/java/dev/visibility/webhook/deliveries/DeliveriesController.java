package dev.visibility.webhook.deliveries;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import dev.visibility.platform.cursor.CursorCodec;
import dev.visibility.platform.error.InvalidParameter;
import dev.visibility.platform.error.NotFound;
import dev.visibility.platform.query.QueryParams;
import dev.visibility.platform.web.Envelope;
import dev.visibility.webhook.delivery.DeliveryState;
import dev.visibility.webhook.subscriptions.SubscriptionRepository;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Schema;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The delivery log of a webhook (spec 6.4.3) and redelivery. The gateway checks
 * {@code webhooks.read} for the log and {@code webhooks.write} for redelivery. The log of a
 * deleted webhook stays readable; redelivery needs an active webhook.
 */
@RestController
@RequestMapping("/api/v2/projects/{projectId}/webhooks/{webhookId}/deliveries")
class DeliveriesController {

    static final int DEFAULT_PAGE_SIZE = 25;

    private final SubscriptionRepository subscriptions;
    private final DeliveryLog log;
    private final Redeliveries redeliveries;
    private final CursorCodec cursors;

    DeliveriesController(SubscriptionRepository subscriptions, DeliveryLog log, Redeliveries redeliveries, CursorCodec cursors) {
        this.subscriptions = subscriptions;
        this.log = log;
        this.redeliveries = redeliveries;
        this.cursors = cursors;
    }

    /** Newest first; {@code state} filters, {@code pageSize} 1-100 (default 25), {@code cursor} continues. */
    @GetMapping
    @Parameter(in = ParameterIn.QUERY, name = "state", description = "only deliveries in this state",
            schema = @Schema(type = "string", allowableValues = {"pending", "succeeded", "failed", "cancelled"}))
    @Parameter(in = ParameterIn.QUERY, name = "pageSize", description = "deliveries per page",
            schema = @Schema(type = "integer", minimum = "1", maximum = "100", defaultValue = "25"))
    @Parameter(in = ParameterIn.QUERY, name = "cursor", description = "the nextCursor of the previous page; at most 2000 characters, valid only with the same filters",
            schema = @Schema(type = "string", maxLength = 2000))
    Mono<Envelope<DeliveryPage>> list(@PathVariable String projectId, @PathVariable String webhookId,
            ServerWebExchange exchange) {
        UUID project = QueryParams.pathUuid("projectId", projectId);
        UUID webhook = QueryParams.pathUuid("webhookId", webhookId);
        QueryParams query = QueryParams.of(exchange.getRequest().getQueryParams());
        String state = query.oneOf("state", DeliveryState.wireNames(), null);
        int pageSize = query.intInRange("pageSize", 1, 100, DEFAULT_PAGE_SIZE);
        String scope = CursorCodec.fingerprint("webhook-deliveries", project, webhook, state == null ? "" : state, pageSize);
        String cursor = query.raw(CursorCodec.PARAMETER);
        DeliveryLog.Position after = cursor == null ? null : position(cursors.decode(cursor, scope).position());
        return subscriptions.exists(project, webhook, false)
                .flatMap(exists -> exists ? log.page(webhook, state, after, pageSize + 1)
                        : Mono.error(new NotFound("No webhook with this id exists in the project")))
                .map(items -> {
                    boolean hasMore = items.size() > pageSize;
                    List<DeliveryItem> page = hasMore ? items.subList(0, pageSize) : items;
                    String next = hasMore ? cursors.encode(scope, position(page.get(page.size() - 1))) : null;
                    return Envelope.of(new DeliveryPage(page, new DeliveryPage.Pagination(hasMore, next, pageSize)), projectId);
                });
    }

    /** 202: a new delivery of the same body is queued; the answer is that delivery, pending. */
    @PostMapping("/{deliveryId}/redeliver")
    // the status the ResponseEntity below sets, stated for the OpenAPI document (springdoc reads it)
    @ResponseStatus(HttpStatus.ACCEPTED)
    Mono<ResponseEntity<Envelope<DeliveryItem>>> redeliver(@PathVariable String projectId, @PathVariable String webhookId,
            @PathVariable String deliveryId) {
        UUID project = QueryParams.pathUuid("projectId", projectId);
        UUID webhook = QueryParams.pathUuid("webhookId", webhookId);
        UUID delivery = QueryParams.pathUuid("deliveryId", deliveryId);
        return redeliveries.redeliver(project, webhook, delivery)
                .map(item -> ResponseEntity.status(HttpStatus.ACCEPTED).body(Envelope.of(item, projectId)));
    }

    private static String position(DeliveryItem last) {
        Instant at = last.createdAt();
        return at.getEpochSecond() + "." + at.getNano() + "," + last.id();
    }

    /** The position of a verified cursor; a malformed one cannot pass the codec's MAC, but is still a 400. */
    private static DeliveryLog.Position position(String text) {
        try {
            String[] parts = text.split(",", 2);
            String[] time = parts[0].split("\\.", 2);
            return new DeliveryLog.Position(Instant.ofEpochSecond(Long.parseLong(time[0]), Long.parseLong(time[1])),
                    UUID.fromString(parts[1]));
        } catch (RuntimeException e) {
            throw new InvalidParameter(CursorCodec.PARAMETER, "Parameter 'cursor' is not a cursor issued by this API");
        }
    }
}
