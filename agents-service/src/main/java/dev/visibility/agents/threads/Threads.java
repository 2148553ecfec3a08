package dev.visibility.agents.threads;

import java.time.Instant;
import java.util.UUID;
import java.util.regex.Pattern;

import dev.visibility.agents.access.AgentsAccess;
import dev.visibility.platform.security.Caller;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The thread checks E9 and E10 share, in the order of their reasons: the thread id is an id (400
 * {@code invalid_thread_id}), the thread exists in the project (404 {@code thread_not_found}),
 * the caller's member owns it (403 {@code not_thread_owner}), it is not deleted (404
 * {@code thread_deleted}); and E9's read of pending handoffs.
 */
@Component
class Threads {

    private static final Pattern UUID_TEXT =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private final DatabaseClient db;

    Threads(DatabaseClient db) {
        this.db = db;
    }

    record Thread(UUID id, UUID projectId, UUID ownerMemberId, Instant deletedAt) {
    }

    static UUID threadId(String value) {
        if (value == null || !UUID_TEXT.matcher(value).matches()) {
            throw AgentsAccess.invalidThreadId();
        }
        return UUID.fromString(value);
    }

    /** The thread the caller may use: its own, in the project, not deleted; {@code forUpdate} locks the row. */
    Mono<Thread> usable(UUID projectId, UUID threadId, Caller caller, boolean forUpdate) {
        return db.sql("SELECT id, project_id, owner_member_id, deleted_at FROM assistant_threads"
                        + " WHERE id = :id AND project_id = :project" + (forUpdate ? " FOR UPDATE" : ""))
                .bind("id", threadId).bind("project", projectId)
                .map(row -> new Thread(row.get("id", UUID.class), row.get("project_id", UUID.class),
                        row.get("owner_member_id", UUID.class), row.get("deleted_at", Instant.class)))
                .one()
                .switchIfEmpty(Mono.error(AgentsAccess::threadNotFound))
                .map(thread -> {
                    if (!owns(caller, thread)) {
                        throw AgentsAccess.notThreadOwner();
                    }
                    if (thread.deletedAt() != null) {
                        throw AgentsAccess.threadDeleted();
                    }
                    return thread;
                });
    }

    private static boolean owns(Caller caller, Thread thread) {
        String member = AgentsAccess.member(caller);
        return member != null && member.equalsIgnoreCase(thread.ownerMemberId().toString());
    }

    /** E9: the thread's handoffs that are pending and not expired, in the order they were offered. */
    Flux<HandoffView> pendingHandoffs(UUID projectId, UUID threadId) {
        return db.sql("""
                SELECT id, agent, agent_key, estimate_credits, expires_at, instructions FROM thread_handoffs
                WHERE thread_id = :thread AND project_id = :project AND state = 'pending' AND expires_at > now()
                ORDER BY offered_at, id""")
                .bind("thread", threadId).bind("project", projectId)
                .map(row -> new HandoffView(row.get("id", UUID.class), row.get("agent", String.class),
                        row.get("agent_key", String.class), row.get("estimate_credits", java.math.BigDecimal.class),
                        row.get("expires_at", Instant.class), row.get("instructions", String.class)))
                .all();
    }
}
