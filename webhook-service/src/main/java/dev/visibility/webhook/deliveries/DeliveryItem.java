package dev.visibility.webhook.deliveries;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A delivery of the log (spec 6.4.3). {@code id} is the {@code X-Service-Delivery} header;
 * {@code redeliveryOf} is the delivery a redelivery repeats (null for the fan-out's own);
 * {@code attempts} are oldest first; {@code lastAttemptAt} is null before the first attempt.
 */
public record DeliveryItem(UUID id, String event, UUID eventId, String state, UUID redeliveryOf,
        List<Attempt> attempts, Instant createdAt, Instant lastAttemptAt) {

    /**
     * One attempt: its number (1 to 4), when it started, the HTTP status (null without an answer),
     * how long it took, and for a failure its class (README: http_status, timeout, connection,
     * tls, blocked_address; null on success).
     */
    public record Attempt(int attempt, Instant at, Integer httpStatus, long durationMs, String errorClass) {
    }
}
