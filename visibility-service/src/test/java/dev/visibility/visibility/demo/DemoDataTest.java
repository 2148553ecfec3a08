package dev.visibility.visibility.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.platform.events.Topics;
import dev.visibility.platform.events.AgentPicksRunRecorded;
import dev.visibility.platform.testing.JsonShapes;
import dev.visibility.visibility.support.VisibilityTest;
import dev.visibility.platform.events.TrackingRunCompleted;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;

/**
 * The local demo goes through the real topics and gives what the examples promise: E1 with
 * thousands of evidence items, runs in all five states, E12 retained and expired, ads.
 */
class DemoDataTest extends VisibilityTest {

    @Test
    void demoIngestsAndItsExamplePathsAnswer() {
        UUID project = UUID.randomUUID();
        String account = "acct-" + UUID.randomUUID();
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        DemoData demo = new DemoData(project, account, today, Duration.ofDays(90));

        List<TrackingRunCompleted> runs = demo.trackingRuns(5, true);
        runs.forEach(run -> publish(Topics.TRACKING_RUNS, project.toString(), run));
        List<DemoData.DemoRun> picks = demo.agentPicksRuns();
        picks.forEach(run -> run.records().forEach(r -> publish(Topics.AGENTPICKS_RUNS, run.runId().toString(), r)));
        // published twice, as after a restart before anything was consumed: ids are stable, nothing doubles
        picks.forEach(run -> run.records().forEach(r -> publish(Topics.AGENTPICKS_RUNS, run.runId().toString(), r)));

        awaitTrue("demo tracking runs are stored", () -> count("SELECT count(*) FROM tracking_runs WHERE project_id = $1", project) == 5);
        awaitTrue("the large run has all its evidence",
                () -> count("SELECT count(*) FROM agentpicks_evidence WHERE run_id = $1", demo.bigRun()) == DemoData.BIG_RUN_EVIDENCE);
        for (DemoData.DemoRun run : picks) {
            long last = run.records().get(run.records().size() - 1).revision();
            awaitTrue(run.name() + " is at its last revision", () -> count(
                    "SELECT count(*) FROM agentpicks_runs WHERE run_id = $1 AND revision = $2", run.runId(), last) == 1);
        }
        assertThat(db.sql("SELECT DISTINCT status FROM agentpicks_runs WHERE project_id = :p").bind("p", project)
                .map(row -> row.get(0, String.class)).all().collectList().block())
                .containsExactlyInAnyOrderElementsOf(AgentPicksRunRecorded.STATUSES);
        assertThat(count("SELECT count(*) FROM responses WHERE project_id = $1 AND ad_count > 0", project)).isPositive();

        Map<String, String> examples = demo.examples();
        Map<String, Object> e1 = data(get(examples.get("E1"), project, account, "e1-agent-picks-run"));
        @SuppressWarnings("unchecked")
        Map<String, Object> evidence = (Map<String, Object>) e1.get("evidence");
        assertThat(evidence).containsEntry("availability", "end_of_trail");
        assertThat((List<?>) evidence.get("items")).hasSize(100);
        assertThat(evidence.get("pagination")).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsEntry("has_more", true);
        @SuppressWarnings("unchecked")
        Map<String, Object> run = (Map<String, Object>) e1.get("run");
        assertThat(run).containsEntry("status", "completed").containsEntry("test_status", "running");

        Map<String, Object> noEvents = data(get(examples.get("E1_running_without_events"), project, account, "e1-agent-picks-run"));
        assertThat(noEvents.get("evidence")).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsEntry("availability", "not_retained");

        Map<String, Object> retained = data(get(examples.get("E12"), project, account, "e12-retained-response"));
        assertThat(retained).containsEntry("retained", true).containsEntry("adCaptureMeasured", true);
        assertThat((List<?>) retained.get("ads")).isNotEmpty();
        assertThat((String) retained.get("answerText")).isNotEmpty();
        assertThat(data(get(examples.get("E12_expired"), project, account, "e12-retained-response")))
                .containsEntry("retained", false).containsEntry("answerText", "");
    }

    /**
     * The demo is published on the first start only; a start on a later day writes examples that still
     * name what was published (E12's execution ids are of days), not executions of days never published.
     */
    @Test
    void aLaterDaysStartNamesTheExecutionsPublishedOnTheFirst() {
        UUID project = UUID.randomUUID();
        String account = "acct-" + UUID.randomUUID();
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        assertThat(DemoPublisher.demoDay(db, project, 5, today)).as("nothing published yet").isEqualTo(today);

        LocalDate firstStart = today.minusDays(3);
        DemoData published = new DemoData(project, account, firstStart, Duration.ofDays(90));
        published.trackingRuns(5, true).forEach(run -> publish(Topics.TRACKING_RUNS, project.toString(), run));
        awaitTrue("demo tracking runs are stored", () -> count("SELECT count(*) FROM tracking_runs WHERE project_id = $1", project) == 5);

        LocalDate demoDay = DemoPublisher.demoDay(db, project, 5, today);
        assertThat(demoDay).isEqualTo(firstStart);
        Map<String, String> examples = new DemoData(project, account, demoDay, Duration.ofDays(90)).examples();
        assertThat(data(get(examples.get("E12"), project, account, "e12-retained-response")))
                .containsEntry("retained", true).containsEntry("adCaptureMeasured", true);
        assertThat(data(get(examples.get("E12_expired"), project, account, "e12-retained-response")))
                .containsEntry("retained", false).containsEntry("answerText", "");
    }

    private String get(String path, UUID project, String account, String schema) {
        byte[] body = client.get().uri(path).header(HttpHeaders.AUTHORIZATION, bearer(project, account, "agent-picks"))
                .exchange().expectStatus().isOk().expectBody().returnResult().getResponseBody();
        String json = new String(body, StandardCharsets.UTF_8);
        JsonShapes.assertValidResponse(schema, json);
        return json;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> data(String json) {
        return (Map<String, Object>) JSON.readValue(json, Map.class).get("data");
    }
}
