package dev.visibility.agents.threads;

import java.time.Instant;
import java.util.UUID;

import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Mono;

/** {@code thread_audit}: append-only; a thread delete never removes or changes a row. */
final class ThreadAudit {

    static final String THREAD_DELETED = "thread_deleted";

    private ThreadAudit() {
    }

    static Mono<Void> insert(DatabaseClient db, UUID id, UUID projectId, UUID threadId, String action, String actor,
            String keyId, Instant occurredAt) {
        DatabaseClient.GenericExecuteSpec spec = db.sql("""
                INSERT INTO thread_audit (id, project_id, thread_id, action, actor, key_id, occurred_at)
                VALUES (:id, :project, :thread, :action, :actor, :keyId, :occurredAt) ON CONFLICT (id) DO NOTHING""")
                .bind("id", id).bind("project", projectId).bind("thread", threadId).bind("action", action)
                .bind("occurredAt", occurredAt);
        spec = actor == null ? spec.bindNull("actor", String.class) : spec.bind("actor", actor);
        spec = keyId == null ? spec.bindNull("keyId", String.class) : spec.bind("keyId", keyId);
        return spec.then();
    }
}
