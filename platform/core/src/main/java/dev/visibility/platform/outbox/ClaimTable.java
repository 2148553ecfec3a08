package dev.visibility.platform.outbox;

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
 * {@code processed_events} ({@code suite.retention.processed-events}).
 */
public final class ClaimTable {

    private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    private final String name;

    public ClaimTable(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("A claim table's name is a lower-case SQL identifier: " + name);
        }
        this.name = name;
    }

    public String name() {
        return name;
    }

    @Override
    public String toString() {
        return "claim table " + name;
    }
}
