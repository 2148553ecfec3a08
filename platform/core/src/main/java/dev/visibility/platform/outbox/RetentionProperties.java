package dev.visibility.platform.outbox;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * How long the platform's bookkeeping tables keep rows (issue 22); {@link PlatformRetention}
 * deletes older ones. Sent outbox rows follow {@code suite.outbox.retention}.
 *
 * @param enabled         whether this instance runs the deletes
 * @param interval        how often they run (also once at start)
 * @param processedEvents how long a consumer remembers an eventId it applied. A record redelivered
 *                        later than this would be applied again, so it must exceed the longest time
 *                        a record can come back: the topics' retention (Kafka's default, 7 days)
 * @param deadLetters     how long parked outbox rows are kept for a look and a replay
 * @param chunk           rows per delete statement (short transactions; repeated while full)
 * @param idempotencyKeys how long stored answers to POSTs with an {@code Idempotency-Key} are kept
 *                        (they are replayed for 24 hours)
 */
@ConfigurationProperties("suite.retention")
public record RetentionProperties(Boolean enabled, Duration interval, Duration processedEvents, Duration deadLetters,
        Integer chunk, Duration idempotencyKeys) {

    public RetentionProperties(Boolean enabled, Duration interval, Duration processedEvents, Duration deadLetters,
            Integer chunk) {
        this(enabled, interval, processedEvents, deadLetters, chunk, null);
    }


    @org.springframework.boot.context.properties.bind.ConstructorBinding
    public RetentionProperties {
        enabled = enabled == null || enabled;
        interval = interval == null ? Duration.ofHours(1) : interval;
        processedEvents = processedEvents == null ? Duration.ofDays(14) : processedEvents;
        deadLetters = deadLetters == null ? Duration.ofDays(30) : deadLetters;
        chunk = chunk == null ? 10_000 : chunk;
        idempotencyKeys = idempotencyKeys == null ? Duration.ofDays(1) : idempotencyKeys;
    }
}
