package dev.visibility.agents.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import dev.visibility.agents.access.AgentsAccess;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.security.Caller;
import dev.visibility.platform.testing.TestKafka;
import dev.visibility.platform.testing.TestTokens;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Base of the agents-service tests: the one Spring context (real broker, real database), records
 * published on the real topics as the agent runner and the assistant do, HTTP with internal tokens
 * as the gateway mints them (with the key's creator, issue 19).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
public abstract class AgentsTest {

    protected static final Duration WITHIN = Duration.ofSeconds(60);
    protected static final ObjectMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    protected int port;
    @Autowired
    protected DatabaseClient db;
    @Autowired
    protected ObjectMapper mapper;

    protected WebTestClient client;

    @BeforeEach
    void createClient() {
        client = WebTestClient.bindToServer().baseUrl("http://localhost:" + port).responseTimeout(Duration.ofSeconds(20)).build();
    }

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

    protected void publish(String topic, UUID projectId, Object record) {
        TestKafka.publish(topic, projectId.toString(), record instanceof String text ? text : mapper.writeValueAsString(record));
    }

    protected void publishThreads(UUID projectId, Object... records) {
        for (Object record : records) {
            publish(Topics.AGENTS_THREADS, projectId, record);
        }
    }

    protected long count(String sql, Object... binds) {
        DatabaseClient.GenericExecuteSpec spec = db.sql(sql);
        for (int i = 0; i < binds.length; i++) {
            spec = spec.bind(i, binds[i]);
        }
        return spec.map(row -> row.get(0, Long.class)).one().block(Duration.ofSeconds(10));
    }

    protected void awaitCount(long expected, String sql, Object... binds) {
        await().atMost(WITHIN).until(() -> count(sql, binds) == expected);
    }

    @SuppressWarnings("unchecked")
    protected Map<String, Object> json(WebTestClient.RequestHeadersSpec<?> request, int status) {
        byte[] raw = request.exchange().expectStatus().isEqualTo(status)
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_JSON)
                .expectBody().returnResult().getResponseBody();
        return JSON.readValue(raw, Map.class);
    }

    /** Asserts the error shape of spec 7 with the status and reason, and answers the body. */
    protected Map<String, Object> refusal(WebTestClient.RequestHeadersSpec<?> request, int status, String reason) {
        Map<String, Object> body = json(request, status);
        assertThat(body.keySet()).containsExactlyInAnyOrder("error", "message", "status", "reason");
        assertThat(body).containsEntry("status", status).containsEntry("reason", reason);
        return body;
    }

    protected WebTestClient.RequestHeadersSpec<?> get(String path, String bearer) {
        return client.get().uri(path).header(HttpHeaders.AUTHORIZATION, bearer);
    }

    protected WebTestClient.RequestHeadersSpec<?> delete(String path, String bearer) {
        return client.delete().uri(path).header(HttpHeaders.AUTHORIZATION, bearer);
    }
}
