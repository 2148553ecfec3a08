package dev.visibility.actions.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import dev.visibility.actions.support.ActionsTest;
import dev.visibility.platform.security.Caller;
import dev.visibility.platform.testing.TestTokens;
import org.junit.jupiter.api.Test;

/** DESIGN.md "Action writes": POST and PATCH, transitions, the events history and action.* events. */
class ActionWritesTest extends ActionsTest {

    private static final String USER = "8d4f7c2e-1111-4a2b-9c3d-000000000001";

    private static String userBearer(UUID project) {
        return TestTokens.bearer(TestTokens.mint(new Caller("acct-77", project.toString(), null, "client-1", USER,
                Set.of("actions.read", "actions.write"), Set.of())));
    }

    @Test
    void createAnswers201WithTheActionAsSuggestedAndPublishesActionCreated() {
        UUID project = UUID.randomUUID();
        UUID assignee = UUID.randomUUID();
        Map<String, Object> envelope = post(project, userBearer(project), Map.of("title", "Rewrite the pricing page",
                "description", "Name the product in the H1", "channels", List.of("content"), "priority", "high",
                "targetLabel", "Pricing page", "assignedTo", assignee.toString()), 201);
        Map<String, Object> action = data(envelope);
        assertThat(map(envelope.get("meta"))).containsEntry("projectId", project.toString());
        assertThat(action).containsEntry("title", "Rewrite the pricing page").containsEntry("status", "suggested")
                .containsEntry("priority", "high").containsEntry("targetLabel", "Pricing page")
                .containsEntry("assignedTo", assignee.toString()).containsEntry("blocked", false)
                .containsEntry("portfolioRank", null).containsEntry("opportunity", null);
        String id = String.valueOf(action.get("id"));

        List<Published> events = eventsOf(project, id);
        assertThat(events).extracting(Published::type).containsExactly("action.created");
        Published created = events.get(0);
        assertSchema(created);
        // spec 6.1 envelope and 6.2 base: origin user, actor with userId, empty changedFields, links with the brief
        assertThat(created.body()).containsEntry("projectId", project.toString()).containsEntry("accountId", "acct-77");
        Map<String, Object> data = created.data();
        assertThat(data).containsEntry("event", "action.created").containsEntry("actionId", id)
                .containsEntry("origin", "user").containsEntry("changedFields", List.of())
                .doesNotContainKey("recommendationContext");
        assertThat(map(data.get("actor"))).isEqualTo(Map.of("type", "user", "userId", USER));
        assertThat(map(data.get("action"))).containsEntry("id", id).containsEntry("status", "suggested")
                .containsEntry("surface", "workspace").containsEntry("priority", "high");
        assertThat(map(map(data.get("action")).get("target"))).containsEntry("label", "Pricing page")
                .containsEntry("type", null).containsEntry("payload", Map.of());
        Map<String, Object> links = map(data.get("links"));
        assertThat(links).containsEntry("apiActionContext", "/api/v2/projects/" + project + "/actions/list?detailLevel=context");
        assertThat(links.get("mcpActionContext")).isEqualTo(Map.of("tool", "service_get_actions", "args", Map.of("detailLevel", "context")));
        assertThat(links.get("mcpActionBrief")).isEqualTo(Map.of("tool", "service_get_action_brief", "args", Map.of("actionId", id)));
    }

    @Test
    void statusMovesThroughAcceptedLiveArchivedWithActionUpdatedEach() {
        UUID project = UUID.randomUUID();
        String id = String.valueOf(createAction(project, "Ship it").get("id"));
        assertThat(data(patch(project, id, Map.of("status", "accepted"), 200))).containsEntry("status", "accepted");
        assertThat(data(patch(project, id, Map.of("blocked", true), 200))).containsEntry("blocked", true);
        // leaving accepted unblocks: blocked is true only on accepted work (spec 3)
        assertThat(data(patch(project, id, Map.of("status", "live"), 200))).containsEntry("status", "live").containsEntry("blocked", false);
        assertThat(data(patch(project, id, Map.of("status", "archived"), 200))).containsEntry("status", "archived");

        List<Published> events = eventsOf(project, id);
        assertThat(events).extracting(Published::type).containsExactly("action.created", "action.updated",
                "action.updated", "action.updated", "action.updated");
        assertThat(events.subList(1, 5)).extracting(e -> e.data().get("changedFields")).containsExactly(
                List.of("status"), List.of("blocked"), List.of("status", "blocked"), List.of("status"));
        events.forEach(ActionsTest::assertSchema);
        Published last = events.get(4);
        assertThat(map(last.data().get("action"))).containsEntry("status", "archived");
        assertThat(map(last.data().get("links"))).doesNotContainKey("mcpActionBrief");
    }

    @Test
    void invalidTransitionsAre400NamingStatus() {
        UUID project = UUID.randomUUID();
        String id = String.valueOf(createAction(project, "Not yet").get("id"));
        Map<String, Object> body = patch(project, id, Map.of("status", "live"), 400);
        assertThat(body).containsEntry("error", "invalid_request");
        assertThat(String.valueOf(body.get("message"))).contains("status").contains("suggested").contains("live");
        patch(project, id, Map.of("status", "archived"), 200);
        patch(project, id, Map.of("status", "accepted"), 400);
        // a dismissed suggestion can be restored
        assertThat(data(patch(project, id, Map.of("status", "suggested"), 200))).containsEntry("status", "suggested");
        assertThat(typesOf(project, id)).containsExactly("action.created", "action.updated", "action.updated");
    }

    @Test
    void blockedOnlyOnAcceptedWork() {
        UUID project = UUID.randomUUID();
        String id = String.valueOf(createAction(project, "Blockable").get("id"));
        Map<String, Object> body = patch(project, id, Map.of("blocked", true), 400);
        assertThat(String.valueOf(body.get("message"))).contains("blocked");
        body = patch(project, id, Map.of("status", "live", "blocked", true), 400);
        assertThat(String.valueOf(body.get("message"))).contains("status");
        assertThat(data(patch(project, id, Map.of("status", "accepted", "blocked", true), 200)))
                .containsEntry("status", "accepted").containsEntry("blocked", true);
    }

    @Test
    void unchangedValuesFireNoEventAndRecordNoHistory() {
        UUID project = UUID.randomUUID();
        String id = String.valueOf(createAction(project, "Same").get("id"));
        patch(project, id, Map.of("priority", "medium", "status", "suggested"), 200);
        assertThat(typesOf(project, id)).containsExactly("action.created");
        assertThat(list(data(get(project, "/actions/" + id + "/events", 200)).get("events"))).hasSize(1);
    }

    @Test
    void badBodiesAre400NamingTheField() {
        UUID project = UUID.randomUUID();
        Map<String, Object> valid = Map.of("title", "T", "description", "D", "channels", List.of("content"), "priority", "low");
        for (Object[] bad : new Object[][] {
                {Map.of("description", "D", "channels", List.of("content"), "priority", "low"), "title"},
                {with(valid, "title", 5), "title"},
                {with(valid, "channels", List.of()), "channels"},
                {with(valid, "channels", List.of("Not A Channel")), "channels"},
                {with(valid, "priority", "urgent"), "priority"},
                {with(valid, "assignedTo", "nobody"), "assignedTo"},
                {with(valid, "stauts", "accepted"), "stauts"}}) {
            Map<String, Object> body = post(project, bad[0], 400);
            assertThat(body).containsEntry("error", "invalid_request");
            assertThat(String.valueOf(body.get("message"))).contains((String) bad[1]);
        }
        assertThat(post(project, "[1, 2]", 400)).containsEntry("error", "invalid_request");
        assertThat(post(project, "{not json", 400)).containsEntry("status", 400);
        String id = String.valueOf(createAction(project, "Patchable").get("id"));
        assertThat(String.valueOf(patch(project, id, Map.of(), 400).get("message"))).contains("at least one");
        assertThat(String.valueOf(patch(project, id, Map.of("status", "done"), 400).get("message"))).contains("status");
        assertThat(String.valueOf(patch(project, id, Map.of("blocked", "yes"), 400).get("message"))).contains("blocked");
        assertThat(String.valueOf(patch(project, "not-a-uuid", Map.of("priority", "low"), 400).get("message"))).contains("actionId");
    }

    @Test
    void unknownActionsAndOtherProjectsActionsAre404() {
        UUID project = UUID.randomUUID();
        assertThat(patch(project, UUID.randomUUID().toString(), Map.of("priority", "low"), 404)).containsEntry("error", "not_found");
        UUID other = UUID.randomUUID();
        String theirs = String.valueOf(createAction(other, "Theirs").get("id"));
        assertThat(patch(project, theirs, Map.of("priority", "low"), 404)).containsEntry("error", "not_found");
        assertThat(get(project, "/actions/" + theirs + "/brief", 404)).containsEntry("error", "not_found");
        assertThat(get(project, "/actions/" + theirs + "/events", 404)).containsEntry("error", "not_found");
    }

    @Test
    void eventsHistoryTellsWhoChangedWhatNewestFirst() {
        UUID project = UUID.randomUUID();
        String id = String.valueOf(data(post(project, userBearer(project), Map.of("title", "Tracked",
                "description", "D", "channels", List.of("content"), "priority", "low"), 201)).get("id"));
        UUID assignee = UUID.randomUUID();
        patch(project, id, Map.of("assignedTo", assignee.toString(), "targetLabel", "Docs"), 200);
        patch(project, id, Map.of("status", "accepted"), 200);

        Map<String, Object> data = data(get(project, "/actions/" + id + "/events?pageSize=2", 200));
        assertThat(map(data.get("pagination"))).containsEntry("totalCount", 3).containsEntry("totalPages", 2);
        List<Map<String, Object>> events = list(data.get("events"));
        assertThat(events).extracting(e -> e.get("type")).containsExactly("updated", "updated");
        assertThat(events.get(0)).containsEntry("changedFields", List.of("status")).containsEntry("origin", "user");
        assertThat(map(events.get(0).get("actor"))).containsEntry("type", "user").containsEntry("keyId", "key-test");
        assertThat(list(events.get(0).get("changes"))).containsExactly(Map.of("field", "status", "from", "suggested", "to", "accepted"));
        assertThat(events.get(1)).containsEntry("changedFields", List.of("assigned_to", "target_label"));
        Map<String, Object> first = list(data(get(project, "/actions/" + id + "/events?pageSize=2&page=2", 200)).get("events")).get(0);
        assertThat(first).containsEntry("type", "created");
        assertThat(map(first.get("actor"))).containsEntry("userId", USER).containsEntry("clientId", "client-1");
    }

    private static Map<String, Object> with(Map<String, Object> base, String key, Object value) {
        Map<String, Object> copy = new java.util.LinkedHashMap<>(base);
        copy.put(key, value);
        return copy;
    }
}
