package dev.visibility.platform.outbox;

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
}
