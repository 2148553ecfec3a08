package dev.visibility.agents.threads;

import java.util.UUID;

import dev.visibility.platform.consumer.PoisonRecord;
import dev.visibility.platform.events.AssistantThreadRecorded;
import dev.visibility.platform.events.AssistantThreadRecorded.Handoff;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Applies an {@code agents.threads} record in the consumer's transaction (with the claim of its
 * eventId): threads, handoffs and their states, billing rows of credits used, and an audit row per
 * thread event. A thread belongs to one project and one owner for good, a handoff to one thread: a
 * record that says otherwise is poison. Records about a deleted thread are kept (billing, audit) but
 * never bring it back; a handoff offered after the delete is kept as cancelled.
 */
@Component
class ThreadIngestion {

    private final DatabaseClient db;

    ThreadIngestion(DatabaseClient db) {
        this.db = db;
    }

    Mono<Void> apply(AssistantThreadRecorded r) {
        return ownThread(r).flatMap(deleted -> switch (r.kind()) {
            case AssistantThreadRecorded.THREAD_CREATED -> created(r);
            case AssistantThreadRecorded.HANDOFF_OFFERED -> offered(r, deleted);
            case AssistantThreadRecorded.HANDOFF_ACCEPTED -> handoffState(r, "accepted");
            case AssistantThreadRecorded.HANDOFF_EXPIRED -> handoffState(r, "expired");
            case AssistantThreadRecorded.CREDITS_USED -> credits(r);
            default -> Mono.error(new PoisonRecord("unknown kind"));
        });
    }

    /** Whether the known thread is deleted (false when unknown); poison when it is another project's or owner's. */
    private Mono<Boolean> ownThread(AssistantThreadRecorded r) {
        return db.sql("SELECT project_id, owner_member_id, deleted_at IS NOT NULL AS deleted FROM assistant_threads WHERE id = :id")
                .bind("id", r.threadId())
                .map(row -> {
                    if (!r.projectId().equals(row.get("project_id", UUID.class))) {
                        throw new PoisonRecord("the thread belongs to another project");
                    }
                    if (r.ownerMemberId() != null && AssistantThreadRecorded.THREAD_CREATED.equals(r.kind())
                            && !r.ownerMemberId().equals(row.get("owner_member_id", UUID.class))) {
                        throw new PoisonRecord("the thread already has another owner");
                    }
                    return Boolean.TRUE.equals(row.get("deleted", Boolean.class));
                })
                .one()
                .defaultIfEmpty(false);
    }

    private Mono<Void> created(AssistantThreadRecorded r) {
        DatabaseClient.GenericExecuteSpec spec = db.sql("""
                INSERT INTO assistant_threads (id, project_id, owner_member_id, title, created_at)
                VALUES (:id, :project, :owner, :title, :createdAt) ON CONFLICT (id) DO NOTHING""")
                .bind("id", r.threadId()).bind("project", r.projectId()).bind("owner", r.ownerMemberId())
                .bind("createdAt", r.occurredAt());
        spec = r.title() == null ? spec.bindNull("title", String.class) : spec.bind("title", r.title());
        return spec.then().then(audit(r, r.ownerMemberId().toString()));
    }

    private Mono<Void> offered(AssistantThreadRecorded r, boolean threadDeleted) {
        Handoff h = r.handoff();
        return db.sql("SELECT thread_id FROM thread_handoffs WHERE id = :id")
                .bind("id", h.handoffId())
                .map(row -> row.get("thread_id", UUID.class))
                .one()
                .flatMap(thread -> thread.equals(r.threadId()) ? Mono.<Void>empty()
                        : Mono.<Void>error(new PoisonRecord("the handoff belongs to another thread")))
                .then(db.sql("""
                        INSERT INTO thread_handoffs (id, thread_id, project_id, agent, agent_key, estimate_credits, expires_at,
                            instructions, state, offered_at)
                        VALUES (:id, :thread, :project, :agent, :agentKey, :estimate, :expiresAt, :instructions, :state, :offeredAt)
                        ON CONFLICT (id) DO NOTHING""")
                        .bind("id", h.handoffId()).bind("thread", r.threadId()).bind("project", r.projectId())
                        .bind("agent", h.agent()).bind("agentKey", h.agentKey()).bind("estimate", h.estimateCredits())
                        .bind("expiresAt", h.expiresAt()).bind("instructions", h.instructions())
                        .bind("state", threadDeleted ? "cancelled" : "pending").bind("offeredAt", r.occurredAt())
                        .then())
                .then(audit(r, "assistant"));
    }

    private Mono<Void> handoffState(AssistantThreadRecorded r, String state) {
        return db.sql("SELECT state FROM thread_handoffs WHERE id = :id AND thread_id = :thread FOR UPDATE")
                .bind("id", r.handoffId()).bind("thread", r.threadId())
                .map(row -> row.get("state", String.class))
                .one()
                .switchIfEmpty(Mono.error(() -> new PoisonRecord("names a handoff never offered in this thread")))
                // only a pending handoff moves; an accepted, expired or cancelled one stays as it is
                .flatMap(current -> !"pending".equals(current) ? Mono.<Void>empty()
                        : db.sql("UPDATE thread_handoffs SET state = :state, state_changed_at = :at WHERE id = :id")
                                .bind("state", state).bind("at", r.occurredAt()).bind("id", r.handoffId())
                                .then())
                .then(audit(r, "assistant"));
    }

    private Mono<Void> credits(AssistantThreadRecorded r) {
        return db.sql("""
                INSERT INTO thread_credits (event_id, project_id, thread_id, credits, occurred_at)
                VALUES (:eventId, :project, :thread, :credits, :occurredAt) ON CONFLICT (event_id) DO NOTHING""")
                .bind("eventId", r.eventId()).bind("project", r.projectId()).bind("thread", r.threadId())
                .bind("credits", r.creditsUsed()).bind("occurredAt", r.occurredAt())
                .then();
    }

    private Mono<Void> audit(AssistantThreadRecorded r, String actor) {
        return ThreadAudit.insert(db, r.eventId(), r.projectId(), r.threadId(), r.kind(), actor, null, r.occurredAt());
    }
}
