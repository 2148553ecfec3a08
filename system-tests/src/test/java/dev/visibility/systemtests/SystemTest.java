package dev.visibility.systemtests;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.visibility.platform.testing.Http;
import dev.visibility.platform.testing.Http.Answer;
import org.junit.jupiter.api.BeforeAll;

/**
 * Base of the domain tests (issues 4, 5, 6): every call goes to the public origin through the
 * gateway ({@link Edge#domain}, the replica whose limit these tests never reach) with the seeded
 * projects' real API keys. The seeded project ({@code seed.projectId}, key {@code seed.apiKey},
 * feature agent-picks) carries the data; the other project ({@code otherProjectId}, no
 * agent-picks feature) proves isolation.
 */
abstract class SystemTest {

    protected static final Duration WITHIN = Duration.ofSeconds(90);

    protected static Edge edge;

    @BeforeAll
    static void startSystem() {
        edge = Edge.get();
        Kafka.recordPublicEvents();
    }

    protected static String project() {
        return edge.seed.projectId();
    }

    protected static String key() {
        return edge.seed.apiKey();
    }

    protected static String otherProject() {
        return edge.seed.otherProjectId();
    }

    protected static String otherKey() {
        return edge.seed.otherApiKey();
    }

    protected static String account() {
        return edge.seed.accountId();
    }

    /** A call through the gateway to {@code /api/v2/projects/{projectId}<path>}. */
    protected static Answer call(String method, String projectId, String path, String key, Object body) {
        return Http.call(edge.domain.baseUrl(), method, "/api/v2/projects/" + projectId + path, key, body, Map.of());
    }

    protected static Answer get(String path) {
        return call("GET", project(), path, key(), null);
    }

    /** A GET of the seeded project that must answer {@code status}. */
    protected static Answer get(String path, int status) {
        Answer response = get(path);
        assertThat(response.status()).as("GET %s: %s", path, response.body()).isEqualTo(status);
        return response;
    }

    protected static Answer post(String path, Object body, int status) {
        Answer response = call("POST", project(), path, key(), body);
        assertThat(response.status()).as("POST %s: %s", path, response.body()).isEqualTo(status);
        return response;
    }

    protected static Answer patch(String path, Object body, int status) {
        Answer response = call("PATCH", project(), path, key(), body);
        assertThat(response.status()).as("PATCH %s: %s", path, response.body()).isEqualTo(status);
        return response;
    }

    /** Spec 7: the error shape with the given status and {@code error}; answers the body. */
    protected static Map<String, Object> assertError(Answer response, int status, String error) {
        assertThat(response.status()).as(response.body()).isEqualTo(status);
        Map<String, Object> body = response.json();
        assertThat(body.keySet()).contains("error", "message", "status").isSubsetOf("error", "message", "status", "reason");
        assertThat(body).containsEntry("error", error).containsEntry("status", status);
        return body;
    }

    /** A 400 whose message names the parameter (DESIGN.md: "400 naming the parameter"). */
    protected static void assertBadParameter(Answer response, String parameter) {
        Map<String, Object> body = assertError(response, 400, "invalid_request");
        assertThat((String) body.get("message")).contains(parameter);
    }

    /** The {@code {data, meta}} envelope of spec 2.1, with meta of the given project. */
    @SuppressWarnings("unchecked")
    protected static Map<String, Object> envelope(Answer response, String projectId) {
        Map<String, Object> body = response.json();
        assertThat(body).containsOnlyKeys("data", "meta");
        Map<String, Object> meta = (Map<String, Object>) body.get("meta");
        assertThat(meta).containsOnlyKeys("timestamp", "projectId").containsEntry("projectId", projectId);
        assertThat(java.time.Instant.parse((String) meta.get("timestamp"))).isNotNull();
        return (Map<String, Object>) body.get("data");
    }

    @SuppressWarnings("unchecked")
    protected static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    protected static List<Map<String, Object>> list(Object value) {
        return (List<Map<String, Object>>) value;
    }

    protected static List<String> ids(List<Map<String, Object>> items) {
        List<String> ids = new ArrayList<>();
        items.forEach(item -> ids.add((String) item.get("id")));
        return ids;
    }

    // --- webhooks (E13, E15) ----------------------------------------------------------------

    /** Subscribes {@code url} in the project through the gateway (E13) and answers {@code data}. */
    protected static Map<String, Object> subscribe(String projectId, String projectKey, String url, String... events) {
        Answer created = call("POST", projectId, "/webhooks", projectKey, Map.of("url", url, "events", List.of(events)));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return created.data();
    }

    protected static void unsubscribe(String projectId, String projectKey, Object webhookId) {
        Answer deleted = call("DELETE", projectId, "/webhooks/" + webhookId, projectKey, null);
        assertThat(deleted.status()).as(deleted.body()).isEqualTo(200);
    }
}
