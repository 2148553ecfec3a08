package dev.visibility.outcomes.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import dev.visibility.platform.events.OutcomeMeasured;
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
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Base of the module's integration tests: the service's one Spring context on the shared broker and
 * database; records go through the real topics, requests through the real server. Each test works
 * in fresh project ids, so tests never see each other's data.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
public abstract class OutcomesTest {

    protected static final Duration WAIT = Duration.ofSeconds(60);
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
        client = WebTestClient.bindToServer().baseUrl("http://localhost:" + port).responseTimeout(Duration.ofSeconds(30))
                .codecs(c -> c.defaultCodecs().maxInMemorySize(8 * 1024 * 1024)).build();
    }

    /** Publishes measured windows onto outcomes.measurements, keyed by project, in order. */
    protected void publish(OutcomeMeasured... records) {
        publish(List.of(records));
    }

    protected void publish(List<OutcomeMeasured> records) {
        if (records.isEmpty()) {
            return;
        }
        TestKafka.publish(Topics.OUTCOMES_MEASUREMENTS, records.get(0).projectId().toString(),
                records.stream().map(mapper::writeValueAsString).toList());
    }

    /** Publishes an action event (spec 6.1 envelope plus eventId) as actions-service's outbox does. */
    protected void publishActionEvent(UUID project, UUID action, String event, String title, String status,
            java.time.Instant at) {
        Map<String, Object> actionMap = new java.util.LinkedHashMap<>();
        actionMap.put("id", action.toString());
        actionMap.put("title", title);
        actionMap.put("status", status);
        Map<String, Object> data = Map.of("event", event, "actionId", action.toString(), "origin", "user",
                "changedFields", event.equals("action.created") ? List.of() : List.of("status"), "action", actionMap);
        Map<String, Object> envelope = new java.util.LinkedHashMap<>();
        envelope.put("eventId", UUID.randomUUID().toString());
        envelope.put("event", event);
        envelope.put("projectId", project.toString());
        envelope.put("accountId", TestTokens.ACCOUNT);
        envelope.put("timestamp", at.toString());
        envelope.put("data", data);
        TestKafka.publish(Topics.PUBLIC_EVENTS, project.toString(), JSON.writeValueAsString(envelope));
    }

    /** Waits until the project has {@code count} interventions whose latest measurements are stored. */
    protected void awaitInterventions(UUID project, long count) {
        await().atMost(WAIT).until(() -> count("SELECT count(*) FROM interventions WHERE project_id = $1", project) >= count);
    }

    /** Waits until the action events of the project (another consumer, on public.events) have stored {@code count} actions. */
    protected void awaitActions(UUID project, long count) {
        await().atMost(WAIT).until(() -> count("SELECT count(*) FROM actions WHERE project_id = $1", project) >= count);
    }

    /** Waits until the stored measurement of the window carries this eventId. */
    protected void awaitMeasurement(OutcomeMeasured m) {
        await().atMost(WAIT).until(() -> count("SELECT count(*) FROM measurements WHERE intervention_id = $1 AND window_days = $2"
                + " AND event_id = $3", m.interventionId(), m.windowDays(), m.eventId()) == 1);
    }

    /** Waits until the consumer has claimed the eventId (applied it or found it stale). */
    protected void awaitClaimed(String consumer, UUID eventId) {
        await().atMost(WAIT).until(() -> count("SELECT count(*) FROM processed_events WHERE event_id = $1", eventId) >= 1);
    }

    protected long count(String sql, Object... binds) {
        DatabaseClient.GenericExecuteSpec spec = db.sql(sql);
        for (int i = 0; i < binds.length; i++) {
            spec = spec.bind(i, binds[i]);
        }
        return spec.map(row -> ((Number) row.get(0)).longValue()).one().block();
    }

    protected static String bearer(UUID project) {
        return TestTokens.bearer(TestTokens.mint(new Caller(TestTokens.ACCOUNT, project.toString(), "key-test", null, null,
                Set.of("outcomes.read", "intelligence.read"), Set.of())));
    }

    protected WebTestClient.RequestHeadersSpec<?> get(UUID project, String pathAndQuery) {
        return client.get().uri("/api/v2/projects/" + project + pathAndQuery).header(HttpHeaders.AUTHORIZATION, bearer(project));
    }

    /** A 200 answer, parsed. */
    protected JsonNode ok(UUID project, String pathAndQuery) {
        byte[] raw = get(project, pathAndQuery).exchange().expectStatus().isOk()
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_JSON)
                .expectBody().returnResult().getResponseBody();
        return JSON.readTree(raw);
    }

    /** Asserts the error shape of spec 7 with the given status and answers the parsed body. */
    @SuppressWarnings("unchecked")
    protected Map<String, Object> error(UUID project, String pathAndQuery, int status) {
        byte[] raw = get(project, pathAndQuery).exchange().expectStatus().isEqualTo(status)
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_JSON)
                .expectBody().returnResult().getResponseBody();
        Map<String, Object> body = JSON.readValue(raw, Map.class);
        assertThat(body.keySet()).contains("error", "message", "status").isSubsetOf("error", "message", "status", "reason");
        assertThat(body.get("status")).isEqualTo(status);
        return body;
    }

    protected static List<String> fieldNames(JsonNode node) {
        return node.propertyNames().stream().sorted().toList();
    }
}
