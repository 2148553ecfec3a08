package dev.visibility.actions.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

import dev.visibility.platform.events.Topics;
import dev.visibility.platform.testing.Http;
import dev.visibility.platform.testing.JsonShapes;
import dev.visibility.platform.testing.TestKafka;
import dev.visibility.platform.testing.TestTokens;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Base of the actions-service tests: the one Spring context (real broker, real database), HTTP
 * calls with internal tokens as the gateway mints them, the recommendations topic, and the outbox
 * (what this service publishes onto public.events, in commit order).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
public abstract class ActionsTest {

    protected static final Duration WITHIN = Duration.ofSeconds(30);

    @LocalServerPort
    protected int port;
    @Autowired
    protected DatabaseClient db;

    protected WebTestClient client;

    @BeforeEach
    void createClient() {
        client = Http.client(port);
    }

    protected static String bearer(UUID project) {
        return TestTokens.bearer(TestTokens.forProject(project.toString(), "actions.read", "actions.write"));
    }

    protected static String base(UUID project) {
        return "/api/v2/projects/" + project;
    }

    protected Map<String, Object> get(UUID project, String path, int status) {
        return Http.json(client.get().uri(base(project) + path).header(HttpHeaders.AUTHORIZATION, bearer(project)), status);
    }

    protected Map<String, Object> post(UUID project, String token, Object body, int status) {
        byte[] raw = client.post().uri(base(project) + "/actions").header(HttpHeaders.AUTHORIZATION, token)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body instanceof String s ? s : Candidates.JSON.writeValueAsString(body))
                .exchange().expectStatus().isEqualTo(status)
                .expectBody().returnResult().getResponseBody();
        return Http.parse(raw);
    }

    protected Map<String, Object> post(UUID project, Object body, int status) {
        return post(project, bearer(project), body, status);
    }

    protected Map<String, Object> patch(UUID project, String actionId, Object body, int status) {
        byte[] raw = client.patch().uri(base(project) + "/actions/" + actionId).header(HttpHeaders.AUTHORIZATION, bearer(project))
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body instanceof String s ? s : Candidates.JSON.writeValueAsString(body))
                .exchange().expectStatus().isEqualTo(status)
                .expectBody().returnResult().getResponseBody();
        return Http.parse(raw);
    }

    /** A user-created action (POST), answered as spec 2.4. */
    @SuppressWarnings("unchecked")
    protected Map<String, Object> createAction(UUID project, String title) {
        return (Map<String, Object>) post(project, Map.of("title", title, "description", "Written by the team",
                "channels", List.of("content"), "priority", "medium"), 201).get("data");
    }

    @SuppressWarnings("unchecked")
    protected static Map<String, Object> data(Map<String, Object> envelope) {
        return (Map<String, Object>) envelope.get("data");
    }

    @SuppressWarnings("unchecked")
    protected static List<Map<String, Object>> list(Object value) {
        return (List<Map<String, Object>>) value;
    }

    @SuppressWarnings("unchecked")
    protected static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }

    // --- recommendations topic ------------------------------------------------------------------

    @SafeVarargs
    protected static void publish(UUID project, Map<String, Object>... candidates) {
        TestKafka.publish(Topics.RECOMMENDATIONS, project.toString(), Arrays.stream(candidates).map(Candidates::json).toList());
    }

    /** The id of the action of a recommendation, once ingested. */
    protected String awaitAction(UUID project, String recommendationId) {
        String[] id = new String[1];
        await("action of " + recommendationId, () -> {
            id[0] = actionIdOf(project, recommendationId);
            return id[0] != null;
        });
        return id[0];
    }

    protected String actionIdOf(UUID project, String recommendationId) {
        return db.sql("SELECT id::text FROM actions WHERE project_id = :p AND fingerprint_key = :k")
                .bind("p", project).bind("k", recommendationId)
                .map(row -> row.get(0, String.class)).one().block();
    }

    /**
     * Returns once every record published before for {@code project} has been applied: records of
     * one project share a key, hence a partition, and are applied in order; the sentinel is last.
     */
    protected void sync(UUID project) {
        String sentinel = "sentinel-" + UUID.randomUUID();
        publish(project, Candidates.upsert(project, sentinel, "sentinel", 1, 0.1, 0.1, List.of(), 0));
        awaitAction(project, sentinel);
    }

    protected void await(String what, Supplier<Boolean> condition) {
        await(what, condition, () -> "");
    }

    /** Waits (Awaitility) until {@code condition} holds; on time-out the failure shows {@code diagnosis}. */
    protected void await(String what, Supplier<Boolean> condition, Supplier<Object> diagnosis) {
        try {
            Awaitility.await(what).atMost(WITHIN).pollInterval(Duration.ofMillis(50)).until(condition::get);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("Timed out waiting for " + what + " " + diagnosis.get(), e);
        }
    }

    // --- outbox ---------------------------------------------------------------------------------

    /** A record this service published (or is about to publish) on public.events. */
    public record Published(String type, String json, Map<String, Object> body) {

        public Map<String, Object> data() {
            return map(body.get("data"));
        }

        /** The webhook delivery body: the record without its eventId (spec 6.1). */
        public String deliveryJson() {
            Map<String, Object> copy = new java.util.LinkedHashMap<>(body);
            copy.remove("eventId");
            return Candidates.JSON.writeValueAsString(copy);
        }
    }

    @SuppressWarnings("unchecked")
    protected List<Published> outbox(UUID project) {
        return db.sql("SELECT event_type, payload FROM outbox WHERE topic = :topic AND message_key = :p ORDER BY id")
                .bind("topic", Topics.PUBLIC_EVENTS).bind("p", project.toString())
                .map(row -> new Published(row.get(0, String.class), row.get(1, String.class),
                        Candidates.JSON.readValue(row.get(1, String.class), Map.class)))
                .all().collectList().block();
    }

    /** Events about one action, in order. */
    protected List<Published> eventsOf(UUID project, String actionId) {
        return outbox(project).stream().filter(p -> actionId.equals(p.data().get("actionId"))).toList();
    }

    protected List<String> typesOf(UUID project, String actionId) {
        return eventsOf(project, actionId).stream().map(Published::type).toList();
    }

    protected static void assertSchema(Published event) {
        JsonShapes.assertValidEvent(event.type(), event.deliveryJson());
        assertThat(event.body().get("event")).isEqualTo(event.type());
    }
}
