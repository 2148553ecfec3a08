package dev.visibility.actions.brief;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.actions.support.ActionsTest;
import dev.visibility.actions.support.Candidates;
import org.junit.jupiter.api.Test;

/** GET …/actions/{actionId}/brief: the brief and its readiness (ready, stale, missing). */
class ActionBriefTest extends ActionsTest {

    @Test
    void briefIsReadyThenStaleAfterAMaterialChange() {
        UUID project = UUID.randomUUID();
        Map<String, Object> c = Candidates.upsert(project, "briefed", "prompt_gap", 200, 0.5, 0.5, List.of(UUID.randomUUID()), 3);
        c.put("brief", Map.of("summary", "Rewrite the H1", "steps", List.of(Map.of("heading", "H1", "body", "Name the product")),
                "generatedAt", "2026-11-20T09:00:00Z", "updatedAt", "2026-11-21T09:00:00Z"));
        publish(project, c);
        String id = awaitAction(project, "briefed");

        Map<String, Object> envelope = get(project, "/actions/" + id + "/brief", 200);
        assertThat(map(envelope.get("meta"))).containsEntry("projectId", project.toString());
        Map<String, Object> data = data(envelope);
        assertThat(data).containsEntry("actionId", id).containsEntry("status", "suggested");
        assertThat(map(data.get("readiness"))).containsEntry("hasBrief", true).containsEntry("status", "ready")
                .containsEntry("generatedAt", "2026-11-20T09:00:00Z").containsEntry("updatedAt", "2026-11-21T09:00:00Z")
                .containsEntry("canGenerateBrief", false);
        assertThat(map(data.get("brief"))).containsEntry("summary", "Rewrite the H1");
        // E3's context detail tells the same readiness without reading the brief itself
        assertThat(listedReadiness(project, id)).containsEntry("hasBrief", true).containsEntry("status", "ready")
                .containsEntry("generatedAt", "2026-11-20T09:00:00Z").containsEntry("updatedAt", "2026-11-21T09:00:00Z");

        Map<String, Object> next = Candidates.next(c);
        next.put("target", Map.of("label", "Home page", "type", "page", "payload", Map.of()));
        next.put("brief", null);
        publish(project, next);
        sync(project);
        assertThat(map(data(get(project, "/actions/" + id + "/brief", 200)).get("readiness")))
                .containsEntry("status", "stale").containsEntry("canGenerateBrief", true);
        assertThat(listedReadiness(project, id)).containsEntry("hasBrief", true).containsEntry("status", "stale");
        // the recommendation event says so too
        Published updated = eventsOf(project, id).stream().filter(e -> e.type().equals("action.recommendation.updated"))
                .findFirst().orElseThrow();
        assertThat(map(map(updated.data().get("recommendationContext")).get("briefReadiness")))
                .containsEntry("hasBrief", true).containsEntry("status", "stale");
    }

    @Test
    void anActionWithoutBriefIsMissing() {
        UUID project = UUID.randomUUID();
        String id = String.valueOf(createAction(project, "No brief").get("id"));
        Map<String, Object> data = data(get(project, "/actions/" + id + "/brief", 200));
        assertThat(data).containsEntry("brief", null);
        assertThat(map(data.get("readiness"))).containsEntry("hasBrief", false).containsEntry("status", "missing")
                .containsEntry("generatedAt", null).containsEntry("canGenerateBrief", true);
        assertThat(String.valueOf(get(project, "/actions/nope/brief", 400).get("message"))).contains("actionId");
        assertThat(get(project, "/actions/" + UUID.randomUUID() + "/brief", 404)).containsEntry("error", "not_found");
    }

    private Map<String, Object> listedReadiness(UUID project, String id) {
        return list(data(get(project, "/actions/list?detailLevel=context&pageSize=100", 200)).get("actions")).stream()
                .filter(a -> id.equals(a.get("id"))).findFirst()
                .map(a -> map(map(a.get("context")).get("briefReadiness"))).orElseThrow();
    }
}
