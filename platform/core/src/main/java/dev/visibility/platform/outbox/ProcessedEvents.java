package dev.visibility.platform.outbox;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import dev.visibility.platform.db.ArrayLiterals;
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

    /**
     * Claims one eventId where {@code claims} says, in the caller's transaction; answers whether it
     * was not claimed before (false: the record was applied already and must be skipped).
     */
    public Mono<Boolean> claim(Claims claims, UUID eventId) {
        return claims.bind(db.sql(claims.insert("(VALUES (:eventId)) AS ids (id)")))
                .bind("eventId", eventId)
                .fetch()
                .rowsUpdated()
                .map(rows -> rows == 1);
    }

    /**
     * Claims many eventIds with one statement, in the caller's transaction (required: the claimed ones
     * are told apart by the transaction that wrote them), where {@code claims} says; answers the ones
     * that were not claimed before (a batch consumer applies only those). The statement answers only
     * how many it claimed (its command tag): when that is all of them, as it is but for redelivered
     * records, no id is read back.
     */
    public Mono<Set<UUID>> claimAll(Claims claims, List<UUID> eventIds) {
        Set<UUID> distinct = new HashSet<>(eventIds);
        if (distinct.isEmpty()) {
            return Mono.just(distinct);
        }
        UUID[] ids = distinct.toArray(UUID[]::new);
        return claims.bind(db.sql(claims.insert("unnest(:eventIds::uuid[]) AS ids (id)")))
                .bind("eventIds", ArrayLiterals.uuids(ids))
                .fetch()
                .rowsUpdated() // the rows inserted: those that conflicted are not counted
                .flatMap(claimed -> claimed == ids.length ? Mono.just(distinct) : claimedHere(claims, ids));
    }

    /** Those of {@code ids} whose claim this transaction wrote. */
    private Mono<Set<UUID>> claimedHere(Claims claims, UUID[] ids) {
        return claims.bind(db.sql(claims.claimedHere()))
                .bind("eventIds", ids)
                .map(row -> row.get("event_id", UUID.class))
                .all()
                .collect(HashSet<UUID>::new, Set::add)
                .map(claimed -> (Set<UUID>) claimed);
    }
}
