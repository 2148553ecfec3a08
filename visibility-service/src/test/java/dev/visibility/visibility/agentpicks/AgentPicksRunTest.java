package dev.visibility.visibility.agentpicks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.platform.consumer.DeadLetters;
import dev.visibility.platform.events.AgentPicksRunRecorded;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.events.AgentPicksRunRecorded.Classification;
import dev.visibility.platform.events.AgentPicksRunRecorded.Context;
import dev.visibility.platform.events.AgentPicksRunRecorded.Environment;
import dev.visibility.platform.events.AgentPicksRunRecorded.Evidence;
import dev.visibility.visibility.support.AgentPicks;
import dev.visibility.platform.testing.JsonShapes;
import dev.visibility.visibility.support.TopicRecorder;
import dev.visibility.visibility.support.VisibilityTest;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;

/** E1 (spec 2.2, E1 rules 1-6, section 3 run status and evidence availability), through the real topic. */
class AgentPicksRunTest extends VisibilityTest {

    /** Values that E1 rule 4 withholds: none may appear anywhere in a body. */
    private static final List<String> SECRETS = List.of("SECRET-REQUEST-TEXT", "SECRET-JOB-TEXT", "SECRET-ERROR-TEXT",
            "secret-search-term", "/home/dev/secret-project", "SECRET_TOKEN_IN_COMMAND", "secret-path-segment",
            "secret-query-value", "SECRET-ITEM-TEXT", "SECRET-ITEM-ERROR", "left-pad-secret", "evil-unknown-tool",
            "user:pass", "secret-runtime-tool", "14.2.0");

    private void ingest(AgentPicksRunRecorded record) {
        publish(Topics.AGENTPICKS_RUNS, record.runId().toString(), record);
    }

    private void awaitRevision(AgentPicks picks, long revision) {
        awaitTrue("run " + picks.runId + " has revision " + revision, () -> count(
                "SELECT count(*) FROM agentpicks_runs WHERE run_id = $1 AND revision = $2", picks.runId, revision) == 1);
    }

    private void awaitEvidence(AgentPicks picks, long items) {
        awaitTrue("run " + picks.runId + " has " + items + " evidence items", () -> count(
                "SELECT count(*) FROM agentpicks_evidence WHERE run_id = $1", picks.runId) == items);
    }

    private String get(AgentPicks picks, String query) {
        byte[] body = client.get().uri("/api/v2/projects/" + picks.projectId + "/agent-picks/tests/" + picks.testId
                        + "/runs/" + picks.runId + query)
                .header(HttpHeaders.AUTHORIZATION, bearer(picks.projectId, picks.accountId, "agent-picks"))
                .exchange().expectStatus().isOk().expectBody().returnResult().getResponseBody();
        String json = new String(body, StandardCharsets.UTF_8);
        // spec 2.2: no additional properties anywhere inside, every member present
        JsonShapes.assertValidResponse("e1-agent-picks-run", json);
        return json;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> data(String json) {
        return (Map<String, Object>) JSON.readValue(json, Map.class).get("data");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> member(Map<String, Object> map, String name) {
        return (Map<String, Object>) map.get(name);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> items(Map<String, Object> data) {
        return (List<Map<String, Object>>) member(data, "evidence").get("items");
    }

    @Test
    void completedRunMatchesSpec22AndWithholdsWhatRule4Names() {
        AgentPicks picks = AgentPicks.fresh();
        Context context = new Context(new Environment("env-7", "nextjs-saas", "Next.js SaaS", null),
                "SECRET-REQUEST-TEXT: add payments", "add_payments", "SECRET-JOB-TEXT", "clf-2026.11", 900.0);
        Classification classification = new Classification("picked", "stripe", "Stripe", "stripe.com", 0.92, "clf-2026.11",
                "classifier", List.of("stripe@14.2.0", "@stripe/stripe-js", "left-pad-secret"),
                List.of("paddle", "evil-unknown-tool"), true);
        List<Evidence> evidence = List.of(
                new Evidence(UUID.randomUUID(), 1, "search", null, null, AgentPicks.CREATED.plusSeconds(1), 10.0,
                        List.of("secret-search-term stripe vs paddle"), null, List.of(), "search_engine", null, null, null,
                        null, null, null),
                new Evidence(UUID.randomUUID(), 2, "fetch",
                        "https://user:pass@Docs.Stripe.com:443/secret-path-segment?q=secret-query-value#frag", 200,
                        AgentPicks.CREATED.plusSeconds(2), 20.0, List.of(), null, List.of(), "web", "get", null, null, null,
                        "SECRET-ITEM-TEXT", null),
                new Evidence(UUID.randomUUID(), 3, "read", null, null, AgentPicks.CREATED.plusSeconds(3), null, List.of(),
                        "/home/dev/secret-project/package.json", List.of(), "filesystem", null, null, null, null, null, null),
                new Evidence(UUID.randomUUID(), 4, "install", "http://registry.npmjs.org:8080/stripe", null,
                        AgentPicks.CREATED.plusSeconds(4), 40.0, List.of(), null, List.of("stripe@14.2.0", "left-pad-secret"),
                        "secret-runtime-tool", null, 0, false, "SECRET_TOKEN_IN_COMMAND=1 npm install stripe left-pad-secret",
                        null, null),
                new Evidence(UUID.randomUUID(), 5, "command", "file:///etc/passwd", null, AgentPicks.CREATED.plusSeconds(5),
                        50.0, List.of(), null, List.of(), "shell", "BREW", 1, true, "rm -rf /home/dev/secret-project", null,
                        "SECRET-ITEM-ERROR"),
                new Evidence(UUID.randomUUID(), 6, "write", null, null, AgentPicks.CREATED.plusSeconds(6), 60.0, List.of(),
                        "/home/dev/secret-project/app/checkout.ts", List.of("@stripe/stripe-js"), null, null, null, null,
                        null, null, null));
        ingest(picks.record(4, "failed", context, classification, evidence, true));
        awaitEvidence(picks, 6);

        String json = get(picks, "");
        for (String secret : SECRETS) {
            assertThat(json).as("withheld value %s", secret).doesNotContainIgnoringCase(secret);
        }
        Map<String, Object> data = data(json);
        assertThat(member(data, "run")).containsEntry("id", picks.runId.toString())
                .containsEntry("test_id", picks.testId.toString()).containsEntry("test_kind", "payments")
                .containsEntry("test_status", "failed").containsEntry("status", "failed")
                .containsEntry("agent", "claude-code").containsEntry("model", "claude-sonnet-4")
                .containsEntry("repetition", 2).containsEntry("created_at", "2026-11-20T10:00:00Z")
                .containsEntry("started_at", "2026-11-20T10:00:05Z").containsEntry("completed_at", "2026-11-20T10:02:05Z")
                .containsEntry("early_stopped", false).containsEntry("wall_ms", 120000).containsEntry("has_error", true);
        // rule 4: request and job text withheld with their flags
        assertThat(member(data, "context")).containsEntry("request", null).containsEntry("request_withheld", true)
                .containsEntry("job", null).containsEntry("job_withheld", true)
                .containsEntry("intent", "add_payments").containsEntry("classifier_version", "clf-2026.11")
                .containsEntry("agent_timeout_sec", 900.0);
        assertThat(member(member(data, "context"), "environment")).containsOnlyKeys("id", "slug", "name", "framework")
                .containsEntry("id", "env-7").containsEntry("slug", "nextjs-saas").containsEntry("name", "Next.js SaaS")
                .containsEntry("framework", null);
        // rule 4: packages must match the tool catalog; unknown runtime tool names withheld
        assertThat(member(data, "pick")).containsEntry("outcome", "picked").containsEntry("tool_key", "stripe")
                .containsEntry("tool_packages", List.of("stripe", "@stripe/stripe-js"))
                .containsEntry("tool_packages_withheld", true)
                .containsEntry("other_tools", List.of("paddle")).containsEntry("other_tools_withheld", true)
                .containsEntry("diff_truncated", true).containsEntry("confidence", 0.92);

        List<Map<String, Object>> items = items(data);
        assertThat(items).extracting(i -> i.get("seq")).containsExactly(1, 2, 3, 4, 5, 6);
        assertThat(items).extracting(i -> i.get("kind")).containsExactly("search", "fetch", "read", "install", "command", "write");
        // rule 4: a URL shows only its HTTP origin
        assertThat(items).extracting(i -> i.get("url")).containsExactly(null, "https://docs.stripe.com", null,
                "http://registry.npmjs.org:8080", null, null);
        assertThat(member(items.get(0), "detail")).containsEntry("queries", List.of()).containsEntry("text_withheld", true)
                .containsEntry("source", "search_engine");
        assertThat(member(items.get(1), "detail")).containsEntry("method", "GET").containsEntry("text_withheld", true)
                .containsEntry("command_withheld", false);
        assertThat(member(items.get(2), "detail")).containsEntry("path", null).containsEntry("text_withheld", true);
        assertThat(member(items.get(3), "detail")).containsEntry("packages", List.of("stripe"))
                .containsEntry("packages_withheld", true).containsEntry("command_withheld", true)
                .containsEntry("source", null).containsEntry("exit_code", 0).containsEntry("failed", false);
        assertThat(member(items.get(4), "detail")).containsEntry("command_withheld", true).containsEntry("method", null)
                .containsEntry("exit_code", 1).containsEntry("failed", true).containsEntry("text_withheld", true);
        assertThat(member(items.get(5), "detail")).containsEntry("packages", List.of("@stripe/stripe-js"))
                .containsEntry("packages_withheld", false).containsEntry("path", null);
        assertThat(items.get(0)).containsEntry("observed_at", 10.0).containsEntry("status_code", null);
        assertThat(items.get(1)).containsEntry("status_code", 200);
        assertThat(member(data, "evidence")).containsEntry("availability", "end_of_trail");
        assertThat(member(member(data, "evidence"), "pagination")).containsEntry("has_more", false)
                .containsEntry("next_cursor", null).containsEntry("limit", 50);
    }

    @Test
    void allFiveRunStatesAreReturnedAndARunningRunWithoutEventsIsNotRetained() {
        AgentPicks first = AgentPicks.fresh();
        for (String status : AgentPicksRunRecorded.STATUSES) {
            AgentPicks picks = first.anotherRun();
            ingest(picks.record(1, status, List.of(), false));
            awaitRevision(picks, 1);
            Map<String, Object> data = data(get(picks, ""));
            assertThat(member(data, "run")).containsEntry("status", status);
            assertThat(member(data, "evidence")).containsEntry("availability", "not_retained")
                    .containsEntry("items", List.of());
            assertThat(data).containsEntry("pick", null);
        }
    }

    @Test
    void availabilityIsRecordedThenEndOfTrailAndALateOlderRecordNeverRollsTheRunBack() {
        AgentPicks picks = AgentPicks.fresh();
        ingest(picks.record(2, "running", List.of(AgentPicks.fetch(1, "https://stripe.com/docs")), false));
        awaitEvidence(picks, 1);
        Map<String, Object> running = data(get(picks, ""));
        assertThat(member(running, "evidence")).containsEntry("availability", "recorded");
        assertThat(member(running, "run")).containsEntry("status", "running").containsEntry("completed_at", null);

        ingest(picks.record(5, "completed", List.of(AgentPicks.fetch(2, "https://paddle.com/")), true));
        // revision 3 arrives after revision 5: its evidence is kept, its state is not
        ingest(picks.record(3, "running", List.of(AgentPicks.fetch(3, "https://resend.com/")), false));
        awaitEvidence(picks, 3);
        Map<String, Object> done = data(get(picks, ""));
        assertThat(member(done, "run")).containsEntry("status", "completed").containsEntry("test_status", "completed");
        assertThat(member(done, "evidence")).containsEntry("availability", "end_of_trail");
        assertThat(items(done)).extracting(i -> i.get("url"))
                .containsExactly("https://stripe.com", "https://paddle.com", "https://resend.com");
    }

    @Test
    void pagingOverMoreThan1000ItemsReturnsEachExactlyOnceOrderedBySeqThenId() {
        AgentPicks picks = AgentPicks.fresh();
        List<Evidence> all = new ArrayList<>();
        for (int i = 0; i < 1_050; i++) {
            // every seq appears twice: the id decides between them
            all.add(AgentPicks.fetch(i / 2, "https://example.com/" + i));
        }
        List<Evidence> shuffled = new ArrayList<>(all);
        java.util.Collections.shuffle(shuffled, new java.util.Random(7));
        ingest(picks.record(1, "running", shuffled.subList(0, 400), false));
        ingest(picks.record(2, "running", shuffled.subList(400, 800), false));
        ingest(picks.record(3, "completed", shuffled.subList(800, 1_050), true));
        awaitEvidence(picks, 1_050);

        List<String> expected = all.stream()
                .sorted(Comparator.comparingLong(Evidence::seq).thenComparing(e -> e.id().toString()))
                .map(e -> e.id().toString()).toList();
        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            Map<String, Object> data = data(get(picks, "?limit=100" + (cursor == null ? "" : "&cursor=" + cursor)));
            Map<String, Object> pagination = member(member(data, "evidence"), "pagination");
            assertThat(pagination.get("limit")).isEqualTo(100);
            items(data).forEach(item -> seen.add((String) item.get("id")));
            cursor = (String) pagination.get("next_cursor");
            assertThat(pagination.get("has_more")).isEqualTo(cursor != null);
            assertThat(data).containsOnlyKeys("run", "context", "pick", "evidence");
            pages++;
        } while (cursor != null);
        assertThat(pages).isEqualTo(11);
        assertThat(seen).containsExactlyElementsOf(expected);

        // default page size 50 (spec 8)
        Map<String, Object> first = data(get(picks, ""));
        assertThat(items(first)).hasSize(50);
        assertThat(member(member(first, "evidence"), "pagination")).containsEntry("limit", 50).containsEntry("has_more", true);
    }

    @Test
    void cursorOfAnotherRunTestOrLimitAndBadParametersAre400() {
        AgentPicks picks = AgentPicks.fresh();
        AgentPicks sibling = picks.anotherRun();
        AgentPicks otherTest = new AgentPicks(picks.projectId, picks.accountId, UUID.randomUUID(), UUID.randomUUID());
        for (AgentPicks p : List.of(picks, sibling, otherTest)) {
            ingest(p.record(1, "completed", List.of(AgentPicks.fetch(1, "https://a.example/"),
                    AgentPicks.fetch(2, "https://b.example/"), AgentPicks.fetch(3, "https://c.example/")), true));
        }
        awaitEvidence(picks, 3);
        awaitEvidence(sibling, 3);
        awaitEvidence(otherTest, 3);
        String cursor = (String) member(member(data(get(picks, "?limit=1")), "evidence"), "pagination").get("next_cursor");
        assertThat(cursor).isNotNull().hasSizeLessThanOrEqualTo(2000);

        // rule 6: a cursor issued for another scope (run, test, limit) is 400
        assertBadRequest(sibling, "?limit=1&cursor=" + cursor);
        assertBadRequest(otherTest, "?limit=1&cursor=" + cursor);
        assertBadRequest(picks, "?limit=2&cursor=" + cursor);
        assertBadRequest(picks, "?cursor=" + cursor);
        String tampered = cursor.substring(0, 5) + (cursor.charAt(5) == 'A' ? 'B' : 'A') + cursor.substring(6);
        assertBadRequest(picks, "?limit=1&cursor=" + tampered);
        assertBadRequest(picks, "?limit=1&cursor=" + "A".repeat(2001));
        for (String limit : List.of("0", "101", "-1", "ten", "")) {
            assertBadRequest(picks, "?limit=" + limit);
        }
        // the cursor itself continues where it should
        assertThat(items(data(get(picks, "?limit=1&cursor=" + cursor)))).extracting(i -> i.get("seq")).containsExactly(2);
    }

    private void assertBadRequest(AgentPicks picks, String query) {
        Map<String, Object> error = errorBody(client.get().uri("/api/v2/projects/" + picks.projectId + "/agent-picks/tests/"
                        + picks.testId + "/runs/" + picks.runId + query)
                .header(HttpHeaders.AUTHORIZATION, bearer(picks.projectId, picks.accountId, "agent-picks")), 400);
        assertThat(error).containsEntry("error", "invalid_request");
    }

    @Test
    void runMustBelongToTheAccountProjectAndTestTogether() {
        AgentPicks picks = AgentPicks.fresh();
        ingest(picks.record(1, "completed", List.of(), true));
        awaitRevision(picks, 1);
        get(picks, "");

        String path = "/api/v2/projects/{p}/agent-picks/tests/{t}/runs/{r}";
        // another test of the same project
        assertNotFound(path, picks.projectId, UUID.randomUUID(), picks.runId, bearer(picks.projectId, picks.accountId, "agent-picks"));
        // the same project id under another account
        assertNotFound(path, picks.projectId, picks.testId, picks.runId, bearer(picks.projectId, "another-account", "agent-picks"));
        // another project's key on its own path
        UUID other = UUID.randomUUID();
        assertNotFound(path, other, picks.testId, picks.runId, bearer(other, picks.accountId, "agent-picks"));
        // an unknown run
        assertNotFound(path, picks.projectId, picks.testId, UUID.randomUUID(), bearer(picks.projectId, picks.accountId, "agent-picks"));
    }

    private void assertNotFound(String path, UUID project, UUID test, UUID run, String bearer) {
        Map<String, Object> error = errorBody(client.get().uri(path, project, test, run).header(HttpHeaders.AUTHORIZATION, bearer), 404);
        assertThat(error).containsEntry("error", "not_found");
    }

    @Test
    void projectWithoutTheAgentPicksFeatureIs403() {
        AgentPicks picks = AgentPicks.fresh();
        // rule 1 and spec 5.8: the feature is needed besides visibility.read
        Map<String, Object> error = errorBody(client.get().uri("/api/v2/projects/{p}/agent-picks/tests/{t}/runs/{r}",
                picks.projectId, picks.testId, picks.runId).header(HttpHeaders.AUTHORIZATION,
                bearer(picks.projectId, picks.accountId)), 403);
        assertThat(error).containsEntry("error", "forbidden").containsEntry("reason", "feature_not_enabled");
    }

    @Test
    void unusableRecordsAndRecordsClaimingAnotherOwnerGoToTheDeadLetterTopic() {
        AgentPicks picks = AgentPicks.fresh();
        ingest(picks.record(1, "running", List.of(), false));
        awaitRevision(picks, 1);

        String key = picks.runId.toString();
        publish(Topics.AGENTPICKS_RUNS, key, "not json");
        AgentPicksRunRecorded badStatus = picks.record(2, "paused", List.of(), false);
        publish(Topics.AGENTPICKS_RUNS, key, badStatus);
        // the same run claimed by another project
        AgentPicks thief = new AgentPicks(UUID.randomUUID(), picks.accountId, picks.testId, picks.runId);
        publish(Topics.AGENTPICKS_RUNS, key, thief.record(9, "completed", List.of(AgentPicks.fetch(1, "https://x.example")), true));

        assertThat(TopicRecorder.of(DeadLetters.topic(Topics.AGENTPICKS_RUNS)).await(r -> key.equals(r.key()), 3, WAIT))
                .hasSize(3);
        assertThat(count("SELECT count(*) FROM agentpicks_runs WHERE run_id = $1 AND revision = 1 AND project_id = $2",
                picks.runId, picks.projectId)).isOne();
        assertThat(count("SELECT count(*) FROM agentpicks_evidence WHERE run_id = $1", picks.runId)).isZero();
    }
}
