package dev.visibility.webhook.delivery;

import java.util.UUID;

import dev.visibility.platform.consumer.ConsumedRecord;
import jakarta.validation.constraints.NotNull;

/**
 * A record of {@code webhook.deliveries} and its retry topics (key: the webhook id): attempt
 * delivery {@code deliveryId}. Everything else (body, URL, current secret) is read from the
 * database at each attempt. Its eventId is the deliveryId: an attempt re-reads the delivery's
 * state, so a record read twice changes nothing.
 */
public record DeliveryRequested(@NotNull UUID deliveryId, @NotNull UUID webhookId) implements ConsumedRecord {

    public static final String TYPE = "webhook.delivery-requested";

    @Override
    public UUID eventId() {
        return deliveryId;
    }
}
