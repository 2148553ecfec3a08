package dev.visibility.webhook.delivery;

import java.time.Instant;
import java.util.UUID;

/**
 * An attempt failed (non-2xx, time-out, connection or TLS failure): thrown by the delivery
 * listener after the attempt was stored, so that the record moves to the next retry topic (or the
 * dead-letter topic after the last attempt). {@code notBefore} is when the next attempt is due;
 * it becomes the record's back-off header ({@link DeliveryRetryTopics}).
 */
public class DeliveryAttemptFailed extends RuntimeException {

    private final transient UUID deliveryId;
    private final int attempt;
    private final transient Instant notBefore;

    public DeliveryAttemptFailed(UUID deliveryId, int attempt, Instant notBefore) {
        super("Delivery " + deliveryId + " attempt " + attempt + " failed", null, false, false);
        this.deliveryId = deliveryId;
        this.attempt = attempt;
        this.notBefore = notBefore;
    }

    public UUID deliveryId() {
        return deliveryId;
    }

    public int attempt() {
        return attempt;
    }

    public Instant notBefore() {
        return notBefore;
    }
}
