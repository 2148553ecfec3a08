package dev.visibility.agents.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import java.util.UUID;

import dev.visibility.agents.access.AgentsAccess;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.security.Caller;
import dev.visibility.platform.testing.Http;
import dev.visibility.platform.testing.ServiceTest;
import dev.visibility.platform.testing.TestTokens;
import org.springframework.http.HttpHeaders;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Base of the agents-service tests ({@link ServiceTest}: the one Spring context on the shared broker
 * and database, records on the real topics, HTTP through the real server), with what is this
 * module's own: records keyed by project as the agent runner and the assistant publish them, and
 * internal tokens as the gateway mints them (with the key's creator, issue 19).
 */
public abstract class AgentsTest extends ServiceTest {

    /** An API key of the project created by {@code creator}, with the managed-agents plan and both agents scopes. */
    protected static String bearer(UUID project, UUID creator) {
        return bearer(project, creator, Set.of(AgentsAccess.READ, AgentsAccess.RUN), Set.of(AgentsAccess.FEATURE));
    }

    protected static String bearer(UUID project, UUID creator, Set<String> scopes, Set<String> features) {
        return TestTokens.bearer(TestTokens.mint(new Caller(TestTokens.ACCOUNT, project.toString(), "key-" + UUID.randomUUID(),
                null, null, scopes, features, creator == null ? null : creator.toString())));
    }

    protected static String base(UUID project) {
        return "/api/v2/projects/" + project;
    }

    /** A record on the project's key, as the agent runner and the assistant publish them. */
    protected void publish(String topic, UUID projectId, Object record) {
        publish(topic, projectId.toString(), record);
    }

    protected void publishThreads(UUID projectId, Object... records) {
        for (Object record : records) {
            publish(Topics.AGENTS_THREADS, projectId, record);
        }
    }

    /** Asserts the error shape of spec 7 with the status and reason, and answers the body. */
    protected Map<String, Object> refusal(WebTestClient.RequestHeadersSpec<?> request, int status, String reason) {
        Map<String, Object> body = Http.error(request, status);
        assertThat(body).containsEntry("reason", reason);
        return body;
    }

    protected WebTestClient.RequestHeadersSpec<?> get(String path, String bearer) {
        return client.get().uri(path).header(HttpHeaders.AUTHORIZATION, bearer);
    }

    protected WebTestClient.RequestHeadersSpec<?> delete(String path, String bearer) {
        return client.delete().uri(path).header(HttpHeaders.AUTHORIZATION, bearer);
    }
}
