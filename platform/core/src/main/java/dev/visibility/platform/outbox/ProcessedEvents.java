package dev.visibility.platform.outbox;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import dev.visibility.platform.db.ArrayLiterals;
import io.r2dbc.spi.R2dbcException;
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

    /**
     * Claims many eventIds none of which is expected to have been claimed, as in a batch's first try,
     * in the caller's transaction: a plain insert, which costs each claim one look into the claims'
     * unique index where {@link #claimAll}'s skipping insert costs two (one to find a conflict, one to
     * insert). Answers them all; when any of them was claimed before (a redelivered record) it fails
     * with {@link ClaimedBefore}, and the transaction is then aborted: the caller rolls it back and
     * applies the records again in a new one with {@link #claimAll}, which skips those.
     */
    public Mono<Set<UUID>> claimAllNew(Claims claims, List<UUID> eventIds) {
        Set<UUID> distinct = new HashSet<>(eventIds);
        if (distinct.isEmpty()) {
            return Mono.just(distinct);
        }
        return claims.bind(db.sql(claims.insertNew("unnest(:eventIds::uuid[]) AS ids (id)")))
                .bind("eventIds", ArrayLiterals.uuids(distinct.toArray(UUID[]::new)))
                .fetch()
                .rowsUpdated()
                .onErrorMap(ProcessedEvents::uniqueViolation, failure -> new ClaimedBefore(claims, failure))
                .thenReturn(distinct);
    }

    /** Whether {@code failure} is PostgreSQL's unique violation (SQLSTATE 23505), however Spring wrapped it. */
    static boolean uniqueViolation(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof R2dbcException r2dbc && "23505".equals(r2dbc.getSqlState())) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@link #claimAllNew} found an eventId claimed before: its transaction is aborted and must be
     * rolled back, and the records applied again with {@link #claimAll}.
     */
    public static final class ClaimedBefore extends RuntimeException {

        ClaimedBefore(Claims claims, Throwable cause) {
            super("An eventId was claimed before in " + claims.table(), cause);
        }
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
