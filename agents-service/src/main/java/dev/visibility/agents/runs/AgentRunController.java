package dev.visibility.agents.runs;

import java.util.UUID;

import dev.visibility.agents.access.AgentsAccess;
import dev.visibility.platform.error.NotFound;
import dev.visibility.platform.query.QueryParams;
import dev.visibility.platform.security.reactive.CurrentCaller;
import dev.visibility.platform.web.Envelope;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/** E8: {@code GET /api/v2/projects/{projectId}/agents/runs/{runId}} (scope {@code agents.read}, spec 5.8). */
@RestController
class AgentRunController {

    private final AgentRuns runs;

    AgentRunController(AgentRuns runs) {
        this.runs = runs;
    }

    @GetMapping(path = "/api/v2/projects/{projectId}/agents/runs/{runId}", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<Envelope<AgentRunView>> run(@PathVariable String projectId, @PathVariable String runId) {
        UUID project = QueryParams.pathUuid("projectId", projectId);
        return CurrentCaller.get()
                .flatMap(caller -> {
                    AgentsAccess.require(caller, AgentsAccess.READ);
                    UUID run = QueryParams.pathUuid("runId", runId);
                    return runs.find(project, run)
                            .switchIfEmpty(Mono.error(() -> new NotFound("No managed-agent run " + run + " in this project")));
                })
                .map(view -> Envelope.of(view, projectId));
    }
}
