package dev.visibility.agents.demo;

import static dev.visibility.platform.testing.Http.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.agents.support.AgentsTest;
import dev.visibility.agents.support.Schemas;
import dev.visibility.platform.events.Topics;
import org.junit.jupiter.api.Test;

/**
 * The local demo, published through the real topics and read back through E8, E9 and E10 with the
 * demo key's creator: every example request answers what its name says. Its records match the
 * schemas under docs/events.
 */
class DemoDataTest extends AgentsTest {

    private final UUID project = UUID.randomUUID();
    private final UUID member = UUID.randomUUID();
    private final DemoData demo = new DemoData(project, member, Instant.now());

    @Test
    void demoRecordsMatchTheSchemas() {
        demo.runs().forEach(r -> Schemas.assertValidEvent(Topics.AGENTS_RUNS, mapper.writeValueAsString(r)));
        demo.threads().forEach(r -> Schemas.assertValidEvent(Topics.AGENTS_THREADS, mapper.writeValueAsString(r)));
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyExampleAnswersWhatItsNameSays() {
        demo.threads().forEach(r -> publish(Topics.AGENTS_THREADS, project, r));
        demo.runs().forEach(r -> publish(Topics.AGENTS_RUNS, project, r));
        awaitCount(1, "SELECT count(*) FROM agent_runs WHERE id = $1 AND revision = 1", demo.runningRun());
        awaitCount(1, "SELECT count(*) FROM agent_runs WHERE id = $1 AND revision = 3", demo.reviewedRun());
        // the last thread record (one partition per project: the others were applied before it)
        awaitCount(1, "SELECT count(*) FROM thread_handoffs WHERE id = $1", demo.id("handoff:colleague"));
        Map<String, String> examples = demo.examples();
        assertThat(examples.keySet()).containsExactly("E8_completed_with_draft", "E8_awaiting_review", "E8_running", "E9",
                "E9_not_thread_owner", "E10");
        String key = bearer(project, member);

        Map<String, Object> reviewed = (Map<String, Object>) json(get(examples.get("E8_completed_with_draft"), key), 200).get("data");
        assertThat(reviewed).containsEntry("status", "completed");
        assertThat((Map<String, Object>) reviewed.get("draftOutput")).containsEntry("title", "Pricing page refresh");
        Map<String, Object> awaiting = (Map<String, Object>) json(get(examples.get("E8_awaiting_review"), key), 200).get("data");
        assertThat(awaiting).containsEntry("status", "completed").containsEntry("draftOutput", null);
        Map<String, Object> running = (Map<String, Object>) json(get(examples.get("E8_running"), key), 200).get("data");
        assertThat(running).containsEntry("status", "running").containsEntry("completedAt", null);

        List<Map<String, Object>> handoffs = (List<Map<String, Object>>) json(get(examples.get("E9"), key), 200).get("data");
        assertThat(handoffs).extracting(h -> h.get("handoffId")).containsExactly(demo.id("handoff:pending").toString());
        refusal(get(examples.get("E9_not_thread_owner"), key), 403, "not_thread_owner");
        refusal(delete(examples.get("E9_not_thread_owner").replace("/handoffs", ""), key), 403, "not_thread_owner");

        assertThat(json(delete(examples.get("E10"), key), 200)).containsEntry("data", Map.of("status", "deleted"));
        refusal(delete(examples.get("E10"), key), 404, "thread_deleted");
        // the credits of the deleted thread are still billed
        assertThat(count("SELECT count(*) FROM thread_credits WHERE thread_id = $1", demo.deletableThread())).isEqualTo(1);
    }
}
