package dev.visibility.platform.outbox;

import java.time.Duration;
import java.util.regex.Pattern;

/**
 * A table of a service's own in which one batch consumer claims its records' eventIds instead of the
 * shared {@code processed_events} ({@code TopicConsumer.idempotentIn}): for a topic of very many small
 * records, where the claim is a good part of what a record costs (traffic.hits). Each row is an
 * eventId and when it was claimed, without the consumer's name that every row and index entry of
 * {@code processed_events} repeats. The service creates it in a migration of its own:
 *
 * <pre>{@code
 * CREATE TABLE hit_claims (
 *     event_id   uuid        NOT NULL PRIMARY KEY,
 *     claimed_at timestamptz NOT NULL DEFAULT now()
 * );
 * CREATE INDEX hit_claims_claimed_at ON hit_claims USING brin (claimed_at);
 * }</pre>
 *
 * and declares it as a bean, so that {@link PlatformRetention} sweeps it as it sweeps
 * {@code processed_events}: after {@code suite.retention.processed-events}, or after the table's own
 * retention. A claim swept is a record that would be applied again if it were delivered again, so a
 * table's retention must outlast every way its records can come back: the topic's retention (a consumer
 * group reset to the earliest offset reads it all again) and the producers' resends.
 */
public final class ClaimTable {

    private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    private final String name;
    private final Duration retention;

    /** A claim table kept as long as {@code processed_events}. */
    public ClaimTable(String name) {
        this(name, null);
    }

    /** A claim table kept {@code retention} (null: as long as {@code processed_events}). */
    public ClaimTable(String name, Duration retention) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("A claim table's name is a lower-case SQL identifier: " + name);
        }
        if (retention != null && (retention.isNegative() || retention.isZero())) {
            throw new IllegalArgumentException("A claim table's retention must be positive: " + retention);
        }
        this.name = name;
        this.retention = retention;
    }

    public String name() {
        return name;
    }

    /** How long a claim is kept: the table's own retention, else {@code processedEvents}. */
    public Duration retentionOr(Duration processedEvents) {
        return retention == null ? processedEvents : retention;
    }

    @Override
    public String toString() {
        return "claim table " + name;
    }
}
