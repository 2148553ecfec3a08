package dev.visibility.outcomes.support;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import dev.visibility.platform.events.OutcomeMeasured;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.security.Caller;
import dev.visibility.platform.testing.Http;
import dev.visibility.platform.testing.ServiceTest;
import dev.visibility.platform.testing.TestTokens;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * Base of the module's integration tests ({@link ServiceTest}: the service's one Spring context on
 * the shared broker and database, records through the real topics, requests through the real
 * server), with what is outcomes-service's own: its input records, the waits for what its consumers
 * store, and its tokens. Each test works in fresh project ids, so tests never see each other's data.
 */
public abstract class OutcomesTest extends ServiceTest {

    /** Publishes measured windows onto outcomes.measurements, keyed by project, in order. */
    protected void publish(OutcomeMeasured... records) {
        publish(List.of(records));
    }

    protected void publish(List<OutcomeMeasured> records) {
        if (records.isEmpty()) {
            return;
        }
        publish(Topics.OUTCOMES_MEASUREMENTS, records.get(0).projectId().toString(), records);
    }

    /** Publishes an action event (spec 6.1 envelope plus eventId) as actions-service's outbox does. */
    protected void publishActionEvent(UUID project, UUID action, String event, String title, String status, Instant at) {
        Map<String, Object> actionMap = new LinkedHashMap<>();
        actionMap.put("id", action.toString());
        actionMap.put("title", title);
        actionMap.put("status", status);
        Map<String, Object> data = Map.of("event", event, "actionId", action.toString(), "origin", "user",
                "changedFields", event.equals("action.created") ? List.of() : List.of("status"), "action", actionMap);
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("eventId", UUID.randomUUID().toString());
        envelope.put("event", event);
        envelope.put("projectId", project.toString());
        envelope.put("accountId", TestTokens.ACCOUNT);
        envelope.put("timestamp", at.toString());
        envelope.put("data", data);
        publish(Topics.PUBLIC_EVENTS, project.toString(), JSON.writeValueAsString(envelope));
    }

    /** Waits until the project has {@code count} interventions whose latest measurements are stored. */
    protected void awaitInterventions(UUID project, long count) {
        awaitTrue(count + " interventions of " + project,
                () -> count("SELECT count(*) FROM interventions WHERE project_id = $1", project) >= count);
    }

    /** Waits until the action events of the project (another consumer, on public.events) have stored {@code count} actions. */
    protected void awaitActions(UUID project, long count) {
        awaitTrue(count + " actions of " + project,
                () -> count("SELECT count(*) FROM actions WHERE project_id = $1", project) >= count);
    }

    /** Waits until the stored measurement of the window carries this eventId. */
    protected void awaitMeasurement(OutcomeMeasured m) {
        awaitCount(1, "SELECT count(*) FROM measurements WHERE intervention_id = $1 AND window_days = $2 AND event_id = $3",
                m.interventionId(), m.windowDays(), m.eventId());
    }

    /** Waits until the consumer has claimed the eventId (applied it or found it stale). */
    protected void awaitClaimed(String consumer, UUID eventId) {
        awaitTrue(consumer + " claimed " + eventId,
                () -> count("SELECT count(*) FROM processed_events WHERE event_id = $1", eventId) >= 1);
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
    protected Map<String, Object> error(UUID project, String pathAndQuery, int status) {
        return Http.error(get(project, pathAndQuery), status);
    }

    protected static List<String> fieldNames(JsonNode node) {
        return node.propertyNames().stream().sorted().toList();
    }
}
