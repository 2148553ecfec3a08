package dev.visibility.agents.threads;

import java.util.List;
import java.util.UUID;

import dev.visibility.agents.access.AgentsAccess;
import dev.visibility.platform.query.QueryParams;
import dev.visibility.platform.security.reactive.CurrentCaller;
import dev.visibility.platform.web.Envelope;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * E9 and E10 (DESIGN.md "Outcomes, traffic, agents"): every refusal carries one of six reasons,
 * checked in this order: scope ({@code missing_scope}), the plan's managed agents
 * ({@code agents_not_enabled}), the thread id ({@code invalid_thread_id}), the thread
 * ({@code thread_not_found}), its owner ({@code not_thread_owner}), its deletion ({@code thread_deleted}).
 */
@RestController
class ThreadController {

    private static final String THREAD = "/api/v2/projects/{projectId}/agents/assistant/threads/{threadId}";

    private final Threads threads;
    private final ThreadDeletion deletion;

    ThreadController(Threads threads, ThreadDeletion deletion) {
        this.threads = threads;
        this.deletion = deletion;
    }

    /** E9: the thread's pending handoffs that have not expired (scope {@code agents.read}). */
    @GetMapping(path = THREAD + "/handoffs", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<Envelope<List<HandoffView>>> handoffs(@PathVariable String projectId, @PathVariable String threadId) {
        UUID project = QueryParams.pathUuid("projectId", projectId);
        return CurrentCaller.get()
                .flatMap(caller -> {
                    AgentsAccess.require(caller, AgentsAccess.READ);
                    UUID thread = Threads.threadId(threadId);
                    return threads.usable(project, thread, caller, false)
                            .flatMap(t -> threads.pendingHandoffs(project, thread).collectList());
                })
                .map(list -> Envelope.of(list, projectId));
    }

    /** E10: stops the thread's live work and removes it from its owner's history (scope {@code agents.run}). */
    @DeleteMapping(path = THREAD, produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<Envelope<ThreadDeleted>> delete(@PathVariable String projectId, @PathVariable String threadId) {
        UUID project = QueryParams.pathUuid("projectId", projectId);
        return CurrentCaller.get()
                .flatMap(caller -> {
                    AgentsAccess.require(caller, AgentsAccess.RUN);
                    return deletion.delete(project, Threads.threadId(threadId), caller);
                })
                .map(deleted -> Envelope.of(deleted, projectId));
    }
}
