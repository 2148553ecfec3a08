package dev.visibility.platform.outbox;

import java.util.Objects;

import org.springframework.r2dbc.core.DatabaseClient;

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

    /**
     * The statement that claims the ids {@code source} yields as {@code id} (a {@code FROM} item, for
     * example {@code unnest(:eventIds::uuid[]) AS ids (id)}); it inserts only the unclaimed ones.
     */
    String insert(String source) {
        return insertNew(source) + " ON CONFLICT DO NOTHING";
    }

    /**
     * The statement that claims the ids {@code source} yields as {@code id} when none of them is
     * expected to be claimed already: a plain insert, which fails (unique violation) if one is.
     */
    String insertNew(String source) {
        return ownTable()
                ? "INSERT INTO %s (event_id) SELECT id FROM %s".formatted(table, source)
                : "INSERT INTO %s (consumer, event_id) SELECT :consumer, id FROM %s".formatted(table, source);
    }

    /** The statement that reads which of {@code :eventIds} the current transaction claimed. */
    String claimedHere() {
        return "SELECT event_id FROM %s WHERE %s event_id = ANY(:eventIds::uuid[]) AND xmin = pg_current_xact_id()::xid"
                .formatted(table, ownTable() ? "" : "consumer = :consumer AND");
    }

    /** {@code spec} with the consumer's name bound, where the statements name it. */
    DatabaseClient.GenericExecuteSpec bind(DatabaseClient.GenericExecuteSpec spec) {
        return ownTable() ? spec : spec.bind("consumer", consumer);
    }
}
