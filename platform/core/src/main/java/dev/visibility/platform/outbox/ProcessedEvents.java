package dev.visibility.platform.outbox;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Mono;

/**
 * Consumer-side de-duplication by eventId (DESIGN.md: consumers are idempotent by eventId).
 * Call {@link #claim} inside the transaction that applies the record: when it answers false the
 * record was already applied and must be skipped; if the transaction rolls back, so does the claim.
 */
public class ProcessedEvents {

    private final DatabaseClient db;

    public ProcessedEvents(DatabaseClient db) {
        this.db = db;
    }

    public Mono<Boolean> claim(String consumer, UUID eventId) {
        return db.sql("""
                INSERT INTO processed_events (consumer, event_id) VALUES (:consumer, :eventId)
                ON CONFLICT DO NOTHING""")
                .bind("consumer", consumer)
                .bind("eventId", eventId)
                .fetch()
                .rowsUpdated()
                .map(rows -> rows == 1);
    }

    /**
     * Claims many eventIds with one statement, in the caller's transaction; answers the ones that
     * were not claimed before (a batch consumer applies only those).
     */
    public Mono<Set<UUID>> claimAll(String consumer, List<UUID> eventIds) {
        if (eventIds.isEmpty()) {
            return Mono.just(new HashSet<>());
        }
        return db.sql("""
                INSERT INTO processed_events (consumer, event_id)
                SELECT DISTINCT :consumer, id FROM unnest(:eventIds::uuid[]) AS ids(id)
                ON CONFLICT DO NOTHING
                RETURNING event_id""")
                .bind("consumer", consumer)
                .bind("eventIds", eventIds.toArray(UUID[]::new))
                .map(row -> row.get("event_id", UUID.class))
                .all()
                .collect(HashSet<UUID>::new, Set::add)
                .map(claimed -> (Set<UUID>) claimed);
    }
}
