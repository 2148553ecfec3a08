package dev.visibility.actions.prompts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.actions.support.ActionsTest;
import dev.visibility.actions.support.Candidates;
import org.junit.jupiter.api.Test;

/** E6 GET …/actions/from-prompt: actions linked to a prompt by stored evidence (spec 2.5, limit 100). */
class FromPromptTest extends ActionsTest {

    @Test
    void listsLinkedActionsAsSpec25ItemsWithoutMeta() {
        UUID project = UUID.randomUUID();
        UUID prompt = UUID.randomUUID();
        Map<String, Object> linked = Candidates.upsert(project, "linked", "prompt_gap", 200, 0.5, 0.5,
                List.of(prompt, UUID.randomUUID(), UUID.randomUUID()), 3);
        linked.put("highStakes", true);
        publish(project, linked,
                Candidates.upsert(project, "unrelated", "prompt_gap", 200, 0.5, 0.5, List.of(UUID.randomUUID()), 3));
        String id = awaitAction(project, "linked");
        awaitAction(project, "unrelated");

        Map<String, Object> body = get(project, "/actions/from-prompt?promptId=" + prompt, 200);
        assertThat(body.keySet()).containsExactly("data");
        Map<String, Object> data = data(body);
        assertThat(data).containsEntry("hasMore", false);
        assertThat(list(data.get("actions"))).containsExactly(Map.ofEntries(
                Map.entry("id", id), Map.entry("title", "Win back citations for linked"), Map.entry("status", "suggested"),
                Map.entry("suggestionStatus", "open"), Map.entry("briefStatus", "missing"), Map.entry("hidden", false),
                Map.entry("canGenerateBrief", true), Map.entry("canRestore", false),
                Map.entry("requiresHighStakesAcknowledgement", true), Map.entry("relationship", "evidence"),
                Map.entry("supportingPromptCount", 3)));
    }

    @Test
    void atMostOneHundredWithHasMore() {
        UUID project = UUID.randomUUID();
        UUID prompt = UUID.randomUUID();
        List<Map<String, Object>> many = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            many.add(Candidates.upsert(project, "many-" + i, "prompt_gap", 200, 0.5, 0.5, List.of(prompt), 3));
        }
        publish(project, many.toArray(Map[]::new));
        awaitAction(project, "many-100");
        Map<String, Object> data = data(get(project, "/actions/from-prompt?promptId=" + prompt, 200));
        assertThat(data).containsEntry("hasMore", true);
        assertThat(list(data.get("actions"))).hasSize(100);

        // one dismissed: hidden by default, listed with includeHidden=true and restorable
        String dismissed = actionIdOf(project, "many-0");
        patch(project, dismissed, Map.of("status", "archived"), 200);
        data = data(get(project, "/actions/from-prompt?promptId=" + prompt, 200));
        assertThat(data).containsEntry("hasMore", false);
        assertThat(list(data.get("actions"))).hasSize(100).extracting(a -> a.get("id")).doesNotContain(dismissed);
        // with the hidden one included there are 101 again; archived work sorts last, past the limit
        data = data(get(project, "/actions/from-prompt?promptId=" + prompt + "&includeHidden=true", 200));
        assertThat(data).containsEntry("hasMore", true);
        assertThat(list(data.get("actions"))).hasSize(100).extracting(a -> a.get("id")).doesNotContain(dismissed);
    }

    @Test
    void dismissedSuggestionsAreHiddenUnlessAskedForAndRestorable() {
        UUID project = UUID.randomUUID();
        UUID prompt = UUID.randomUUID();
        publish(project, Candidates.upsert(project, "dismissed", "prompt_gap", 200, 0.5, 0.5, List.of(prompt), 3));
        String dismissed = awaitAction(project, "dismissed");
        patch(project, dismissed, Map.of("status", "archived"), 200);
        assertThat(list(data(get(project, "/actions/from-prompt?promptId=" + prompt, 200)).get("actions"))).isEmpty();
        Map<String, Object> hidden = list(data(get(project, "/actions/from-prompt?promptId=" + prompt + "&includeHidden=true&x=1", 200))
                .get("actions")).get(0);
        assertThat(hidden).containsEntry("id", dismissed).containsEntry("hidden", true).containsEntry("canRestore", true)
                .containsEntry("suggestionStatus", "dismissed").containsEntry("status", "archived")
                .containsEntry("canGenerateBrief", false);
        patch(project, dismissed, Map.of("status", "suggested"), 200);
        assertThat(list(data(get(project, "/actions/from-prompt?promptId=" + prompt, 200)).get("actions")).get(0))
                .containsEntry("hidden", false).containsEntry("suggestionStatus", "open");
    }

    @Test
    void anUnknownPromptHasNoActions() {
        UUID project = UUID.randomUUID();
        Map<String, Object> data = data(get(project, "/actions/from-prompt?promptId=" + UUID.randomUUID(), 200));
        assertThat(data).containsEntry("hasMore", false).containsEntry("actions", List.of());
    }

    @Test
    void badParametersAre400NamingThem() {
        UUID project = UUID.randomUUID();
        assertThat(String.valueOf(get(project, "/actions/from-prompt", 400).get("message"))).contains("promptId");
        assertThat(String.valueOf(get(project, "/actions/from-prompt?promptId=abc", 400).get("message"))).contains("promptId");
        assertThat(String.valueOf(get(project, "/actions/from-prompt?promptId=" + UUID.randomUUID() + "&includeHidden=maybe", 400)
                .get("message"))).contains("includeHidden");
    }
}
