package dev.visibility.webhook.deliveries;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

import dev.visibility.platform.error.NotFound;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.outbox.OutboxWriter;
import dev.visibility.platform.tracing.TraceContexts;
import dev.visibility.webhook.delivery.DeliveryRequested;
import dev.visibility.webhook.delivery.DeliveryState;
import dev.visibility.webhook.delivery.DeliveryStore;
import dev.visibility.webhook.subscriptions.SubscriptionRepository;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * Sends a delivery again on a user's request: a new delivery (a new {@code X-Service-Delivery},
 * so that a receiver that de-duplicates processes it) of the same stored body, which references
 * the original ({@code redeliveryOf}, header {@code X-Service-Redelivery-Of}), with its own 1 + 3
 * attempts, signed with the secret current at each attempt. Stored and queued (outbox) in one
 * transaction.
 */
@Service
class Redeliveries {

    private final SubscriptionRepository subscriptions;
    private final DeliveryLog log;
    private final DeliveryStore deliveries;
    private final OutboxWriter outbox;
    private final TransactionalOperator tx;
    private final TraceContexts traces;

    Redeliveries(SubscriptionRepository subscriptions, DeliveryLog log, DeliveryStore deliveries, OutboxWriter outbox,
            TransactionalOperator tx, TraceContexts traces) {
        this.traces = traces;
        this.subscriptions = subscriptions;
        this.log = log;
        this.deliveries = deliveries;
        this.outbox = outbox;
        this.tx = tx;
    }

    Mono<DeliveryItem> redeliver(UUID projectId, UUID webhookId, UUID deliveryId) {
        UUID id = UUID.randomUUID();
        Instant createdAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Mono<DeliveryItem> redelivery = subscriptions.exists(projectId, webhookId, true)
                .flatMap(active -> active ? log.one(webhookId, deliveryId)
                        .switchIfEmpty(Mono.error(new NotFound("No delivery with this id exists for this webhook")))
                        : Mono.error(new NotFound("No active webhook with this id exists in the project")))
                // the redelivery's attempts continue the trace of this request
                .zipWith(traces.capture("webhook.redeliver").singleOptional())
                .flatMap(found -> deliveries.insertRedelivery(id, webhookId, found.getT1().eventId(), found.getT1().id(),
                                createdAt, found.getT2().orElse(null))
                        .thenReturn(found.getT1()))
                .flatMap(original -> outbox.append(Topics.WEBHOOK_DELIVERIES, webhookId.toString(), id, DeliveryRequested.TYPE,
                                new DeliveryRequested(id, webhookId))
                        .thenReturn(new DeliveryItem(id, original.event(), original.eventId(), DeliveryState.PENDING.wireName(),
                                original.id(), List.of(), createdAt, null)));
        return tx.transactional(redelivery);
    }
}
