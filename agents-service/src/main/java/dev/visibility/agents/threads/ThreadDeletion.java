package dev.visibility.agents.threads;

import java.time.Instant;
import java.util.UUID;

import dev.visibility.agents.access.AgentsAccess;
import dev.visibility.platform.events.AssistantThreadStopRequested;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.outbox.OutboxWriter;
import dev.visibility.platform.security.Caller;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * E10 in one transaction: the thread row is locked, checked (owner, not deleted yet), marked
 * deleted (it leaves its owner's history and E9), its pending handoffs are cancelled, an audit row
 * is appended and the stop record goes to the outbox for {@code agents.thread-stops}. A concurrent
 * second delete waits for the lock and then finds the thread deleted (404 {@code thread_deleted}),
 * so exactly one stop record is published per delete. Billing and audit rows are never touched.
 */
@Service
class ThreadDeletion {

    private final Threads threads;
    private final DatabaseClient db;
    private final OutboxWriter outbox;
    private final TransactionalOperator tx;

    ThreadDeletion(Threads threads, DatabaseClient db, OutboxWriter outbox, TransactionalOperator tx) {
        this.threads = threads;
        this.db = db;
        this.outbox = outbox;
        this.tx = tx;
    }

    Mono<ThreadDeleted> delete(UUID projectId, UUID threadId, Caller caller) {
        return tx.transactional(threads.usable(projectId, threadId, caller, true)
                .flatMap(thread -> {
                    Instant now = Instant.now();
                    String member = AgentsAccess.member(caller);
                    AssistantThreadStopRequested stop = new AssistantThreadStopRequested(UUID.randomUUID(), projectId,
                            caller.accountId(), threadId, AssistantThreadStopRequested.THREAD_DELETED, member, caller.keyId(), now);
                    return db.sql("UPDATE assistant_threads SET deleted_at = :now, deleted_by = :member WHERE id = :id")
                            .bind("now", now).bind("member", member).bind("id", threadId)
                            .then()
                            .then(db.sql("""
                                    UPDATE thread_handoffs SET state = 'cancelled', state_changed_at = :now
                                    WHERE thread_id = :id AND state = 'pending'""")
                                    .bind("now", now).bind("id", threadId)
                                    .then())
                            .then(ThreadAudit.insert(db, UUID.randomUUID(), projectId, threadId, ThreadAudit.THREAD_DELETED,
                                    member, caller.keyId(), now))
                            .then(outbox.append(Topics.AGENTS_THREAD_STOPS, projectId.toString(), stop.eventId(),
                                    AssistantThreadStopRequested.EVENT_TYPE, stop));
                }))
                .thenReturn(ThreadDeleted.DELETED);
    }
}
