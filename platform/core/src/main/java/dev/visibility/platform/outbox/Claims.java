package dev.visibility.platform.outbox;

import java.util.Objects;

/**
 * Where a consumer claims the eventIds of the records it applies (DESIGN.md: consumers are
 * idempotent by eventId), in the transaction that applies them ({@link ProcessedEvents}): the shared
 * {@code processed_events} under the consumer's name, or a {@link ClaimTable} of the service's own,
 * whose rows carry no name (batch consumers of topics of very many small records).
 *
 * @param table    the table's name, a lower-case SQL identifier
 * @param consumer the consumer's name in {@code processed_events}; null in a claim table of its own
 */
public record Claims(String table, String consumer) {

    public static final String PROCESSED_EVENTS = "processed_events";

    public Claims {
        table = new ClaimTable(table).name();
        if (PROCESSED_EVENTS.equals(table) != (consumer != null)) {
            throw new IllegalArgumentException("processed_events' claims, and only they, are under a consumer's name");
        }
    }

    /** Claims in {@code processed_events} under {@code consumer}. */
    public static Claims processedEvents(String consumer) {
        return new Claims(PROCESSED_EVENTS, Objects.requireNonNull(consumer, "consumer"));
    }

    /** Claims in a claim table of the service's own. */
    public static Claims in(ClaimTable table) {
        return new Claims(table.name(), null);
    }

    /** Whether the claims are in a table of the service's own rather than in {@code processed_events}. */
    public boolean ownTable() {
        return consumer == null;
    }
}
