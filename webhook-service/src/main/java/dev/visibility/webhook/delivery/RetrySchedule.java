package dev.visibility.webhook.delivery;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

import dev.visibility.webhook.config.WebhookProperties;

/**
 * When a failed delivery is tried again (spec 6.4.3, 8: up to 3 retries with exponential
 * back-off). The nominal delay after failed attempt {@code n} is {@code backoffBase * 2^(n-1)},
 * at most {@code backoffMax}; each delay is drawn uniformly within {@code ±jitter} of it (so that
 * deliveries failing together do not retry together) and again capped at {@code backoffMax}.
 * A {@code Retry-After} of the failed answer lengthens the delay to what the receiver asked for,
 * up to {@code backoffMax}; it never shortens it.
 */
public class RetrySchedule {

    /** The first attempt and up to 3 retries. */
    public static final int MAX_ATTEMPTS = 4;

    private final Duration base;
    private final Duration max;
    private final double jitter;
    private final DoubleSupplier random;

    RetrySchedule(Duration base, Duration max, double jitter, DoubleSupplier random) {
        this.base = base;
        this.max = max;
        this.jitter = jitter;
        this.random = random;
    }

    public RetrySchedule(WebhookProperties.Delivery delivery) {
        this(delivery.backoffBase(), delivery.backoffMax(), delivery.jitter(), () -> ThreadLocalRandom.current().nextDouble());
    }

    /** The nominal delay after failed attempt {@code failedAttempt} (1 to 3), without jitter. */
    public Duration nominalDelay(int failedAttempt) {
        long millis = base.toMillis() << Math.min(failedAttempt - 1, 30);
        return Duration.ofMillis(Math.min(millis, max.toMillis()));
    }

    /** The shortest delay {@link #delayAfter} can draw: the first retry's, less its jitter. */
    public Duration shortestDelay() {
        return Duration.ofMillis(drawn(1, 1 - jitter));
    }

    /** The delay after failed attempt {@code failedAttempt}, given the answer's {@code Retry-After} (may be null). */
    public Duration delayAfter(int failedAttempt, Duration retryAfter) {
        long millis = drawn(failedAttempt, 1 + jitter * (2 * random.getAsDouble() - 1));
        if (retryAfter != null) {
            millis = Math.max(millis, Math.min(retryAfter.toMillis(), max.toMillis()));
        }
        return Duration.ofMillis(millis);
    }

    /** The nominal delay after {@code failedAttempt} times {@code factor}, in milliseconds, at most {@code backoffMax}. */
    private long drawn(int failedAttempt, double factor) {
        return Math.min(Math.round(nominalDelay(failedAttempt).toMillis() * factor), max.toMillis());
    }
}
