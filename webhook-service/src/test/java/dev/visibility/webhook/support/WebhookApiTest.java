package dev.visibility.webhook.support;

import static dev.visibility.platform.testing.Http.data;
import static dev.visibility.platform.testing.Http.json;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;

import dev.visibility.platform.testing.Http;
import dev.visibility.platform.testing.TestTokens;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Base of the service's HTTP tests: the one shared context (same annotations as the smoke
 * test), a client bound to the real port, and calls as the gateway forwards them (internal token
 * of an API key of the project, with the route's scope).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
public abstract class WebhookApiTest {

    @LocalServerPort
    protected int port;

    protected WebTestClient client;

    @BeforeEach
    void createClient() {
        client = Http.client(port);
    }

    protected static String newProject() {
        return UUID.randomUUID().toString();
    }

    protected static String bearer(String projectId, String... scopes) {
        return TestTokens.bearer(TestTokens.forProject(projectId, scopes));
    }

    protected WebTestClient.RequestHeadersSpec<?> post(String projectId, String path, String jsonBody) {
        WebTestClient.RequestBodySpec spec = client.post().uri("/api/v2/projects/" + projectId + path)
                .header(HttpHeaders.AUTHORIZATION, bearer(projectId, "webhooks.write"));
        return jsonBody == null ? spec : spec.contentType(MediaType.APPLICATION_JSON).bodyValue(jsonBody);
    }

    protected WebTestClient.RequestHeadersSpec<?> get(String projectId, String pathAndQuery) {
        return client.get().uri("/api/v2/projects/" + projectId + pathAndQuery)
                .header(HttpHeaders.AUTHORIZATION, bearer(projectId, "webhooks.read"));
    }

    protected WebTestClient.RequestHeadersSpec<?> delete(String projectId, String path) {
        return client.delete().uri("/api/v2/projects/" + projectId + path)
                .header(HttpHeaders.AUTHORIZATION, bearer(projectId, "webhooks.write"));
    }

    /** E13 with a valid body; answers {@code data}. */
    protected Map<String, Object> createWebhook(String projectId, String url, String... events) {
        return data(json(post(projectId, "/webhooks", Map.of("url", url, "events", List.of(events))), 201));
    }

    protected WebTestClient.RequestHeadersSpec<?> post(String projectId, String path, Map<String, ?> body) {
        return post(projectId, path, Http.toJson(body));
    }

    /** The delivery log's items (first page, up to 100, newest first). */
    @SuppressWarnings("unchecked")
    protected List<Map<String, Object>> deliveries(String projectId, Object webhookId) {
        Map<String, Object> data = data(json(get(projectId, "/webhooks/" + webhookId + "/deliveries?pageSize=100"), 200));
        return (List<Map<String, Object>>) data.get("deliveries");
    }

    /** Reads the delivery log until {@code done} holds for its items (Awaitility), or fails after {@code within}. */
    protected List<Map<String, Object>> awaitDeliveries(String projectId, Object webhookId,
            Predicate<List<Map<String, Object>>> done, Duration within) {
        return await("the delivery log of webhook " + webhookId).atMost(within).pollInterval(Duration.ofMillis(100))
                .until(() -> deliveries(projectId, webhookId), done);
    }
}
