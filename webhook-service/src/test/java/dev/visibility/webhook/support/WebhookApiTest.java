package dev.visibility.webhook.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;

import dev.visibility.platform.testing.TestTokens;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.json.JsonMapper;

/**
 * Base of the service's HTTP tests: the one shared context (same annotations as the smoke
 * test), a client bound to the real port, and calls as the gateway forwards them (internal token
 * of an API key of the project, with the route's scope).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
public abstract class WebhookApiTest {

    protected static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    protected int port;

    protected WebTestClient client;

    @BeforeEach
    void createClient() {
        client = WebTestClient.bindToServer().baseUrl("http://localhost:" + port).responseTimeout(Duration.ofSeconds(20)).build();
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
        return post(projectId, path, JSON.writeValueAsString(body));
    }

    /** The delivery log's items (first page, up to 100, newest first). */
    @SuppressWarnings("unchecked")
    protected List<Map<String, Object>> deliveries(String projectId, Object webhookId) {
        Map<String, Object> data = data(json(get(projectId, "/webhooks/" + webhookId + "/deliveries?pageSize=100"), 200));
        return (List<Map<String, Object>>) data.get("deliveries");
    }

    /** Polls the delivery log until {@code done} holds for its items, or fails after {@code within}. */
    protected List<Map<String, Object>> awaitDeliveries(String projectId, Object webhookId,
            Predicate<List<Map<String, Object>>> done, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        List<Map<String, Object>> items = deliveries(projectId, webhookId);
        while (!done.test(items)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("The delivery log did not reach the expected state within " + within + ": " + items);
            }
            sleep(Duration.ofMillis(100));
            items = deliveries(projectId, webhookId);
        }
        return items;
    }

    protected static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    @SuppressWarnings("unchecked")
    protected static Map<String, Object> json(WebTestClient.RequestHeadersSpec<?> request, int status) {
        byte[] raw = request.exchange().expectStatus().isEqualTo(status)
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_JSON)
                .expectBody().returnResult().getResponseBody();
        return JSON.readValue(raw, Map.class);
    }

    @SuppressWarnings("unchecked")
    protected static Map<String, Object> data(Map<String, Object> envelope) {
        assertThat(envelope.keySet()).containsExactlyInAnyOrder("data", "meta");
        return (Map<String, Object>) envelope.get("data");
    }

    @SuppressWarnings("unchecked")
    protected static Map<String, Object> meta(Map<String, Object> envelope) {
        return (Map<String, Object>) envelope.get("meta");
    }

    /** Asserts the error shape of spec 7 without internals; answers the body. */
    protected static Map<String, Object> error(WebTestClient.RequestHeadersSpec<?> request, int status) {
        Map<String, Object> body = json(request, status);
        assertThat(body.keySet()).contains("error", "message", "status").isSubsetOf("error", "message", "status", "reason");
        assertThat(body.get("status")).isEqualTo(status);
        for (String internal : List.of("Exception", "java.", "org.springframework", "dev.visibility", "SELECT", "tools.jackson")) {
            assertThat(body.toString()).doesNotContain(internal);
        }
        return body;
    }
}
