package dev.visibility.webhook.delivery;

import java.util.UUID;

/**
 * A record of {@code webhook.deliveries} (key: the webhook id): attempt delivery {@code deliveryId}.
 * Everything else (body, URL, current secret) is read from the database at each attempt.
 */
public record DeliveryRequested(UUID deliveryId, UUID webhookId) {

    public static final String TYPE = "webhook.delivery-requested";
}
