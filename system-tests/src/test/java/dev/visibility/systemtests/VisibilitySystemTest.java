package dev.visibility.systemtests;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import dev.visibility.platform.testing.JsonShapes;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.testing.Http.Answer;
import dev.visibility.systemtests.Receiver.Received;
import org.junit.jupiter.api.Test;

/**
 * Issue 6 through the gateway with real API keys: E1 (spec 2.2, E1 rules 1-6), E12 (2.12), the
 * visibility summary, and the events of spec 6.2 ({@code search-tracking.completed},
 * {@code visibility.changed}) delivered to a webhook receiver (issue 4). Data enters as the
 * internal producers publish it: JSON records on {@code tracking.runs} and {@code agentpicks.runs}.
 *
 * <p>Only {@link #trackingRunsEmitSignedEventsWithExactPayloadsAndFeedTheSummary} publishes tracking
 * runs of the other seeded project, so its first run there is the project's first run.
 */
class VisibilitySystemTest extends SystemTest {

    private static final Instant CREATED = Instant.parse("2026-11-20T10:00:00Z");

    /** Values that E1 rule 4 withholds: none may appear anywhere in a body. */
    private static final List<String> WITHHELD = List.of("SECRET-REQUEST-TEXT", "SECRET-JOB-TEXT", "SECRET-RUN-ERROR",
            "secret-search-term", "/home/dev/secret-project", "SECRET_TOKEN_IN_COMMAND", "secret-path-segment",
            "secret-query-value", "SECRET-ITEM-TEXT", "SECRET-ITEM-ERROR", "left-pad-secret", "evil-unknown-tool",
            "user:pass", "secret-runtime-tool", "14.2.0");

    // --- records as the producers publish them (docs/events/*.schema.json) ----------------------

    private record Run(String projectId, UUID testId, UUID runId) {

        String path() {
            return "/agent-picks/tests/" + testId + "/runs/" + runId;
        }
    }

    private static Run freshRun() {
        return new Run(project(), UUID.randomUUID(), UUID.randomUUID());
    }

    private static Map<String, Object> agentPicksRecord(Run run, long revision, String status, Map<String, Object> context,
            Map<String, Object> classification, List<Map<String, Object>> evidence, boolean trailComplete) {
        boolean started = !status.equals("queued");
        boolean finished = List.of("failed", "cancelled", "completed").contains(status);
        Map<String, Object> runState = new LinkedHashMap<>();
        runState.put("agent", "claude-code");
        runState.put("model", "claude-sonnet-4");
        runState.put("repetition", 2);
        runState.put("status", status);
        runState.put("createdAt", CREATED.toString());
        runState.put("startedAt", started ? CREATED.plusSeconds(5).toString() : null);
        runState.put("completedAt", finished ? CREATED.plusSeconds(125).toString() : null);
        runState.put("earlyStopped", false);
        runState.put("wallMs", finished ? 120_000 : null);
        runState.put("hasError", status.equals("failed"));
        runState.put("error", status.equals("failed") ? "SECRET-RUN-ERROR: Traceback" : null);
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("eventId", UUID.randomUUID().toString());
        record.put("runId", run.runId().toString());
        record.put("testId", run.testId().toString());
        record.put("projectId", run.projectId());
        record.put("accountId", account());
        record.put("revision", revision);
        record.put("occurredAt", CREATED.plusSeconds(revision).toString());
        record.put("test", Map.of("kind", "payments", "status", status));
        record.put("run", runState);
        record.put("context", context);
        record.put("classification", classification);
        record.put("evidence", evidence);
        record.put("trailComplete", trailComplete);
        return record;
    }

    private static Map<String, Object> context() {
        Map<String, Object> environment = new LinkedHashMap<>();
        environment.put("id", "env-7");
        environment.put("slug", "nextjs-saas");
        environment.put("name", "Next.js SaaS");
        environment.put("framework", null);
        Map<String, Object> context = new LinkedHashMap<>();
        context.put("environment", environment);
        context.put("request", "SECRET-REQUEST-TEXT: add payments");
        context.put("intent", "add_payments");
        context.put("job", "SECRET-JOB-TEXT");
        context.put("classifierVersion", "clf-2026.11");
        context.put("agentTimeoutSec", 900.0);
        return context;
    }

    private static Map<String, Object> item(long seq, String kind, String url, Map<String, Object> facts) {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("id", UUID.randomUUID().toString());
        item.put("seq", seq);
        item.put("kind", kind);
        item.put("url", url);
        item.put("statusCode", kind.equals("fetch") ? 200 : null);
        item.put("recordedAt", CREATED.plusSeconds(seq).toString());
        item.put("observedAt", 1500.0 + seq);
        item.putAll(facts);
        return item;
    }

    private static void ingest(Map<String, Object> record) {
        Kafka.publish(Topics.AGENTPICKS_RUNS, (String) record.get("runId"), record);
    }

    /** Reads E1 through the gateway until the run shows {@code status}; validates each answer against 2.2. */
    private static Map<String, Object> awaitRun(Run run, String status) {
        return Waits.until("run " + run.runId() + " is " + status, WITHIN, () -> {
            Answer response = get(run.path() + "?limit=1");
            return response.status() == 200 ? e1(response) : Map.<String, Object>of();
        }, data -> !data.isEmpty() && status.equals(map(data.get("run")).get("status")));
    }

    /** Spec 2.2: the answer validates against the schema that forbids additional properties at every level. */
    private static Map<String, Object> e1(Answer response) {
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        JsonShapes.assertValidResponse("e1-agent-picks-run", response.body());
        return envelope(response, project());
    }

    static Map<String, Object> tracking(String projectId, LocalDate capturedOn, String status, List<Map<String, Object>> samples) {
        Instant completedAt = capturedOn.atTime(12, 0).toInstant(ZoneOffset.UTC);
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("eventId", UUID.randomUUID().toString());
        run.put("runId", UUID.randomUUID().toString());
        run.put("projectId", projectId);
        run.put("accountId", account());
        run.put("finalStatus", status);
        run.put("capturedOn", capturedOn.toString());
        run.put("startedAt", completedAt.minusSeconds(600).toString());
        run.put("completedAt", completedAt.toString());
        run.put("samples", samples);
        return run;
    }

    /** {@code count} samples of one run; the first {@code visible} name the brand 3 times and cite 2 own URLs. */
    static List<Map<String, Object>> samples(LocalDate capturedOn, int count, int visible) {
        Instant completedAt = capturedOn.atTime(12, 0).toInstant(ZoneOffset.UTC);
        List<Map<String, Object>> samples = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            samples.add(sample(completedAt.minusSeconds(count - i), "chatgpt", i < visible, "Answer " + i, null, List.of()));
        }
        return samples;
    }

    private static Map<String, Object> sample(Instant completedAt, String platform, boolean visible, String answer,
            Instant retainUntil, List<Map<String, Object>> ads) {
        List<Map<String, Object>> citations = new ArrayList<>(List.of(
                Map.of("url", "https://competitor.example/pricing", "domain", "competitor.example", "own", false)));
        List<Map<String, Object>> mentions = new ArrayList<>(List.of(Map.of("brand", "Competitor", "own", false, "count", 1)));
        if (visible) {
            citations.add(Map.of("url", "https://acme.example/docs", "domain", "acme.example", "own", true));
            citations.add(Map.of("url", "https://acme.example/blog", "domain", "acme.example", "own", true));
            mentions.add(Map.of("brand", "Acme", "own", true, "count", 3));
        }
        Map<String, Object> sample = new LinkedHashMap<>();
        sample.put("executionId", UUID.randomUUID().toString());
        sample.put("promptId", UUID.randomUUID().toString());
        sample.put("prompt", "best tool for the job?");
        sample.put("platform", platform);
        sample.put("answerText", answer);
        sample.put("completedAt", completedAt.toString());
        sample.put("retainUntil", retainUntil == null ? null : retainUntil.toString());
        sample.put("citations", citations);
        sample.put("brandMentions", mentions);
        sample.put("adCaptureMeasured", true);
        sample.put("ads", ads);
        return sample;
    }

    private static Map<String, Object> republished(Map<String, Object> run) {
        Map<String, Object> copy = new LinkedHashMap<>(run);
        copy.put("eventId", UUID.randomUUID().toString());
        return copy;
    }

    // --- E1 ------------------------------------------------------------------------------------

    @Test
    void e1MatchesSpec22AndNoWithheldValueAppearsAnywhereInTheBody() {
        Run run = freshRun();
        Map<String, Object> classification = new LinkedHashMap<>();
        classification.put("outcome", "picked");
        classification.put("toolKey", "stripe");
        classification.put("toolDisplayName", "Stripe");
        classification.put("toolBrandDomain", "stripe.com");
        classification.put("confidence", 0.92);
        classification.put("classifierVersion", "clf-2026.11");
        classification.put("decidedBy", "classifier");
        classification.put("toolPackages", List.of("stripe@14.2.0", "@stripe/stripe-js", "left-pad-secret"));
        classification.put("otherTools", List.of("paddle", "evil-unknown-tool"));
        classification.put("diffTruncated", true);
        Map<String, Object> command = new HashMap<>();
        command.put("packages", List.of("stripe@14.2.0", "left-pad-secret"));
        command.put("source", "secret-runtime-tool");
        command.put("exitCode", 0);
        command.put("failed", false);
        command.put("command", "SECRET_TOKEN_IN_COMMAND=1 npm install stripe left-pad-secret");
        command.put("error", "SECRET-ITEM-ERROR");
        List<Map<String, Object>> evidence = List.of(
                item(1, "search", null, Map.of("queries", List.of("secret-search-term stripe vs paddle"), "source", "search_engine")),
                item(2, "fetch", "https://user:pass@Docs.Stripe.com:443/secret-path-segment?q=secret-query-value#frag",
                        Map.of("source", "web", "method", "get", "text", "SECRET-ITEM-TEXT")),
                item(3, "read", null, Map.of("path", "/home/dev/secret-project/package.json", "source", "filesystem")),
                item(4, "install", "http://registry.npmjs.org:8080/stripe", command));
        ingest(agentPicksRecord(run, 4, "failed", context(), classification, evidence, true));
        awaitRun(run, "failed");

        Answer response = get(run.path());
        Map<String, Object> data = e1(response);
        // rule 4: withheld values appear nowhere in the body, whatever the member
        for (String withheld : WITHHELD) {
            assertThat(response.body()).as("withheld value %s", withheld).doesNotContainIgnoringCase(withheld);
        }
        assertThat(map(data.get("run"))).containsEntry("id", run.runId().toString()).containsEntry("test_id", run.testId().toString())
                .containsEntry("status", "failed").containsEntry("test_status", "failed").containsEntry("has_error", true)
                .containsEntry("wall_ms", 120000).containsEntry("created_at", "2026-11-20T10:00:00Z");
        assertThat(map(data.get("context"))).containsEntry("request", null).containsEntry("request_withheld", true)
                .containsEntry("job", null).containsEntry("job_withheld", true).containsEntry("intent", "add_payments");
        assertThat(map(data.get("pick"))).containsEntry("tool_packages", List.of("stripe", "@stripe/stripe-js"))
                .containsEntry("tool_packages_withheld", true).containsEntry("other_tools", List.of("paddle"))
                .containsEntry("other_tools_withheld", true);
        List<Map<String, Object>> items = list(map(data.get("evidence")).get("items"));
        // rule 3: ordered by seq; rule 4: a URL shows only its HTTP origin
        assertThat(items).extracting(i -> i.get("seq")).containsExactly(1, 2, 3, 4);
        assertThat(items).extracting(i -> i.get("url")).containsExactly(null, "https://docs.stripe.com", null,
                "http://registry.npmjs.org:8080");
        assertThat(map(items.get(0).get("detail"))).containsEntry("queries", List.of()).containsEntry("text_withheld", true);
        assertThat(map(items.get(2).get("detail"))).containsEntry("path", null).containsEntry("text_withheld", true);
        assertThat(map(items.get(3).get("detail"))).containsEntry("packages", List.of("stripe"))
                .containsEntry("packages_withheld", true).containsEntry("command_withheld", true).containsEntry("source", null);
        assertThat(map(data.get("evidence"))).containsEntry("availability", "end_of_trail");
        assertThat(map(map(data.get("evidence")).get("pagination"))).isEqualTo(mapOf("has_more", false, "next_cursor", null, "limit", 50));
    }

    @Test
    void pagingOver1050EvidenceItemsReturnsEachExactlyOnceOrderedBySeqThenId() {
        Run run = freshRun();
        List<Map<String, Object>> all = new ArrayList<>();
        for (int i = 0; i < 1_050; i++) {
            // every seq twice: the id decides between them (rule 3)
            all.add(item(i / 2, "fetch", "https://example.com/" + i, Map.of("source", "web", "method", "GET")));
        }
        List<Map<String, Object>> shuffled = new ArrayList<>(all);
        Collections.shuffle(shuffled, new Random(11));
        ingest(agentPicksRecord(run, 1, "running", context(), null, shuffled.subList(0, 400), false));
        ingest(agentPicksRecord(run, 2, "running", context(), null, shuffled.subList(400, 800), false));
        ingest(agentPicksRecord(run, 3, "completed", context(), null, shuffled.subList(800, 1_050), true));
        awaitRun(run, "completed");

        List<String> expected = all.stream()
                .sorted(Comparator.<Map<String, Object>>comparingLong(i -> ((Number) i.get("seq")).longValue())
                        .thenComparing(i -> (String) i.get("id")))
                .map(i -> (String) i.get("id")).toList();
        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            Map<String, Object> data = e1(get(run.path() + "?limit=100" + (cursor == null ? "" : "&cursor=" + cursor)));
            // rule 5: paging is inside evidence.pagination; the top level has none
            assertThat(data).containsOnlyKeys("run", "context", "pick", "evidence");
            Map<String, Object> pagination = map(map(data.get("evidence")).get("pagination"));
            assertThat(pagination.get("limit")).isEqualTo(100);
            list(map(data.get("evidence")).get("items")).forEach(item -> seen.add((String) item.get("id")));
            cursor = (String) pagination.get("next_cursor");
            assertThat(pagination.get("has_more")).isEqualTo(cursor != null);
            assertThat(cursor == null ? "" : cursor).hasSizeLessThanOrEqualTo(2000);
            pages++;
        } while (cursor != null);
        assertThat(pages).isEqualTo(11);
        assertThat(seen).containsExactlyElementsOf(expected);

        // spec 8: default page size 50
        Map<String, Object> first = e1(get(run.path()));
        assertThat(list(map(first.get("evidence")).get("items"))).hasSize(50);
        assertThat(map(map(first.get("evidence")).get("pagination"))).containsEntry("limit", 50).containsEntry("has_more", true);
    }

    @Test
    void cursorOfAnotherRunOrLimitAndBadLimitsAre400() {
        Run run = freshRun();
        Run sibling = new Run(run.projectId(), run.testId(), UUID.randomUUID());
        for (Run r : List.of(run, sibling)) {
            ingest(agentPicksRecord(r, 1, "completed", context(), null, List.of(
                    item(1, "fetch", "https://a.example/", Map.of()), item(2, "fetch", "https://b.example/", Map.of()),
                    item(3, "fetch", "https://c.example/", Map.of())), true));
        }
        awaitRun(run, "completed");
        awaitRun(sibling, "completed");
        String cursor = (String) map(map(e1(get(run.path() + "?limit=1")).get("evidence")).get("pagination")).get("next_cursor");
        assertThat(cursor).isNotNull();

        // E1 rule 6 and spec 7: a cursor issued for another scope (run, limit) is 400
        assertBadParameter(get(sibling.path() + "?limit=1&cursor=" + cursor), "cursor");
        assertBadParameter(get(run.path() + "?limit=2&cursor=" + cursor), "cursor");
        assertBadParameter(get(run.path() + "?cursor=" + cursor), "cursor");
        String tampered = cursor.substring(0, 5) + (cursor.charAt(5) == 'A' ? 'B' : 'A') + cursor.substring(6);
        assertBadParameter(get(run.path() + "?limit=1&cursor=" + tampered), "cursor");
        // spec 8: at most 2000 characters
        assertBadParameter(get(run.path() + "?limit=1&cursor=" + "A".repeat(2001)), "cursor");
        // spec 8: limit 1 to 100
        for (String limit : List.of("0", "101", "ten")) {
            assertBadParameter(get(run.path() + "?limit=" + limit), "limit");
        }
        // the cursor continues where it should on its own run
        assertThat(list(map(e1(get(run.path() + "?limit=1&cursor=" + cursor)).get("evidence")).get("items")))
                .extracting(i -> i.get("seq")).containsExactly(2);
    }

    @Test
    void e1NeedsTheAgentPicksFeatureAndTheRunOfThePathsProjectAndTest() {
        Run run = freshRun();
        ingest(agentPicksRecord(run, 1, "queued", context(), null, List.of(), false));
        Map<String, Object> queued = awaitRun(run, "queued");
        // section 3: a run without events is not_retained
        assertThat(map(queued.get("evidence"))).containsEntry("availability", "not_retained").containsEntry("items", List.of());
        assertThat(queued).containsEntry("pick", null);

        // rule 1, spec 5.8: the other project lacks the agent-picks feature: 403, not 404
        Map<String, Object> forbidden = assertError(call("GET", otherProject(), run.path(), otherKey(), null), 403, "forbidden");
        assertThat(forbidden).containsEntry("reason", "feature_not_enabled");
        // spec 5.4: another project's key cannot read this project's run
        assertError(call("GET", project(), run.path(), otherKey(), null), 404, "not_found");
        // rule 2: the run must belong to the test of the path; unknown runs are 404
        assertError(get("/agent-picks/tests/" + UUID.randomUUID() + "/runs/" + run.runId()), 404, "not_found");
        assertError(get("/agent-picks/tests/" + run.testId() + "/runs/" + UUID.randomUUID()), 404, "not_found");
        // spec 4: path ids are uuids
        assertError(get("/agent-picks/tests/" + run.testId() + "/runs/not-a-uuid"), 400, "invalid_request");
    }

    // --- tracking runs, their events (spec 6.2) and the summary ----------------------------------

    @Test
    void trackingRunsEmitSignedEventsWithExactPayloadsAndFeedTheSummary() {
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        try (Receiver receiver = Receiver.answering(204)) {
            Map<String, Object> webhook = subscribe(otherProject(), otherKey(), receiver.url("/visibility"),
                    "search-tracking.completed", "visibility.changed");
            String secret = (String) webhook.get("secret");
            try {
                // the other project's first run: previousMetrics null (spec 6.2)
                Map<String, Object> first = tracking(otherProject(), today.minusDays(3), "completed", samples(today.minusDays(3), 8, 3));
                Kafka.publish(Topics.TRACKING_RUNS, otherProject(), first);
                List<Received> firstEvents = receiver.await(r -> first.get("runId").equals(r.data().get("runId")), 2, WITHIN);
                Received completed = only(firstEvents, "search-tracking.completed");
                Received changed = only(firstEvents, "visibility.changed");
                assertDelivery(completed, secret);
                assertDelivery(changed, secret);
                assertThat(completed.json()).containsEntry("accountId", account());
                assertThat(completed.data()).isEqualTo(Map.of("runId", first.get("runId"), "finalStatus", "completed"));
                // 3 of 8 samples name or cite the brand: 37.5; 2 own citations and 3 own mentions per visible sample
                assertThat(changed.data()).isEqualTo(mapOf("runId", first.get("runId"), "capturedOn", today.minusDays(3).toString(),
                        "metrics", Map.of("visibilityScore", 37.5, "citationCount", 6, "brandMentionCount", 9, "sampleCount", 8),
                        "previousMetrics", null));
                assertThat(changed.text()).contains("\"previousMetrics\":null");

                // the next run carries the first run's metrics and capture day
                Map<String, Object> second = tracking(otherProject(), today.minusDays(2), "completed", samples(today.minusDays(2), 3, 2));
                Kafka.publish(Topics.TRACKING_RUNS, otherProject(), second);
                // a duplicate run emits nothing new: the same record, and the same run under a new eventId
                Kafka.publish(Topics.TRACKING_RUNS, otherProject(), second, republished(second));
                Map<String, Object> third = tracking(otherProject(), today.minusDays(1), "completed", samples(today.minusDays(1), 2, 1));
                Kafka.publish(Topics.TRACKING_RUNS, otherProject(), third);

                List<Received> thirdEvents = receiver.await(r -> third.get("runId").equals(r.data().get("runId")), 2, WITHIN);
                Received secondChanged = only(receiver.await(r -> second.get("runId").equals(r.data().get("runId")), 2, WITHIN),
                        "visibility.changed");
                assertDelivery(secondChanged, secret);
                assertThat(secondChanged.data()).isEqualTo(Map.of("runId", second.get("runId"),
                        "capturedOn", today.minusDays(2).toString(),
                        "metrics", Map.of("visibilityScore", 66.7, "citationCount", 4, "brandMentionCount", 6, "sampleCount", 3),
                        "previousMetrics", Map.of("visibilityScore", 37.5, "citationCount", 6, "brandMentionCount", 9,
                                "sampleCount", 8, "capturedOn", today.minusDays(3).toString())));
                assertThat(only(thirdEvents, "visibility.changed").data().get("previousMetrics")).isEqualTo(Map.of(
                        "visibilityScore", 66.7, "citationCount", 4, "brandMentionCount", 6, "sampleCount", 3,
                        "capturedOn", today.minusDays(2).toString()));
                // the duplicates were applied before the third run (one key, one partition): the third run is
                // the sentinel. Once its events are on public.events, any event of the duplicates would be
                // ahead of them; there is none, so there is nothing more to deliver either.
                // (the other project's action events of other test classes are not counted)
                java.util.function.Predicate<org.apache.kafka.clients.consumer.ConsumerRecord<String, String>> runEvents = r ->
                        otherProject().equals(r.key()) && List.of("search-tracking.completed", "visibility.changed")
                                .contains(Kafka.JSON.readTree(r.value()).get("event").asString());
                Kafka.awaitPublicEvents(r -> runEvents.test(r) && r.value().contains((String) third.get("runId")), 2, WITHIN);
                assertThat(Kafka.publicEvents(runEvents)).hasSize(6);
                assertThat(receiver.received()).hasSize(6);

                // the visibility summary of the same project (README of visibility-service)
                Answer response = call("GET", otherProject(), "/visibility/summary", otherKey(), null);
                assertThat(response.status()).as(response.body()).isEqualTo(200);
                Map<String, Object> summary = envelope(response, otherProject());
                assertThat(summary).containsOnlyKeys("latest", "previous", "change", "trend", "advertising", "window");
                assertThat(summary.get("latest")).isEqualTo(Map.of("runId", third.get("runId"),
                        "capturedOn", today.minusDays(1).toString(), "visibilityScore", 50.0, "citationCount", 2,
                        "brandMentionCount", 3, "sampleCount", 2));
                assertThat(summary.get("previous")).isEqualTo(Map.of("runId", second.get("runId"),
                        "capturedOn", today.minusDays(2).toString(), "visibilityScore", 66.7, "citationCount", 4,
                        "brandMentionCount", 6, "sampleCount", 3));
                assertThat(summary.get("change")).isEqualTo(Map.of("visibilityScore", -16.7, "citationCount", -2,
                        "brandMentionCount", -3, "sampleCount", -1));
                assertThat(list(summary.get("trend"))).extracting(p -> p.get("capturedOn") + " " + p.get("runCount") + " "
                        + p.get("visibilityScore")).containsExactly(today.minusDays(3) + " 1 37.5", today.minusDays(2) + " 1 66.7",
                        today.minusDays(1) + " 1 50.0");
                assertThat(summary.get("window")).isEqualTo(Map.of("days", 30, "dateFrom", today.minusDays(29).toString(),
                        "dateTo", today.toString()));
                assertThat(map(summary.get("advertising"))).containsEntry("measuredSampleCount", 13)
                        .containsEntry("samplesWithAdsCount", 0).containsEntry("adCount", 0).containsEntry("adRate", 0.0)
                        .containsEntry("topAdvertisers", List.of());
            } finally {
                unsubscribe(otherProject(), otherKey(), webhook.get("id"));
            }
        }
    }

    /** Spec 6.1 envelope, 6.3 headers and signature, and the published schema of the event. */
    private static void assertDelivery(Received delivery, String secret) {
        assertThat(delivery.method()).isEqualTo("POST");
        assertThat(delivery.header("Content-Type")).startsWith("application/json");
        assertThat(delivery.header("User-Agent")).isEqualTo("Service-Webhook/2.0");
        assertThat(delivery.header("X-Service-Signature")).matches("[0-9a-f]{64}");
        assertThat(delivery.verifies(secret)).as("signature of %s", delivery).isTrue();
        assertThat(UUID.fromString(delivery.header("X-Service-Delivery"))).isNotNull();
        Map<String, Object> body = delivery.json();
        assertThat(body).containsOnlyKeys("event", "projectId", "accountId", "timestamp", "data")
                .containsEntry("event", delivery.event()).containsEntry("projectId", otherProject());
        assertThat(Instant.parse((String) body.get("timestamp"))).isNotNull();
        JsonShapes.assertValidEvent(delivery.event(), delivery.text());
    }

    private static Received only(List<Received> deliveries, String event) {
        List<Received> matching = deliveries.stream().filter(d -> event.equals(d.event())).toList();
        assertThat(matching).as(event).hasSize(1);
        return matching.get(0);
    }

    @Test
    void visibilitySummaryWindowsAndBadWindow() {
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        Answer ninety = get("/visibility/summary?days=90", 200);
        Map<String, Object> data = envelope(ninety, project());
        assertThat(data).containsOnlyKeys("latest", "previous", "change", "trend", "advertising", "window");
        assertThat(data.get("window")).isEqualTo(Map.of("days", 90, "dateFrom", today.minusDays(89).toString(),
                "dateTo", today.toString()));
        assertThat(map(data.get("advertising"))).containsKeys("measuredSampleCount", "samplesWithAdsCount", "adRate",
                "adCount", "platforms", "topAdvertisers");
        // spec 7: an unsupported window value is 400
        for (String days : List.of("7", "365", "x")) {
            assertBadParameter(get("/visibility/summary?days=" + days), "days");
        }
        // spec 5.4: another project's key cannot read this project's summary
        assertError(call("GET", project(), "/visibility/summary", otherKey(), null), 404, "not_found");
    }

    // --- E12 -----------------------------------------------------------------------------------

    @Test
    void e12ShowsTheAnswerUntilRetentionExpiresThenRetainedFalseAndIsNotFoundAcrossProjects() {
        Instant completedAt = Instant.now().minus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.MILLIS);
        Instant retainUntil = Instant.now().plusSeconds(10);
        Map<String, Object> ad = Map.of("title", "Try Rival", "description", "The rival tool", "domain", "rival.example",
                "name", "Rival Inc.", "body", "Sign up today", "url", "https://rival.example/landing?utm=ai");
        Map<String, Object> sample = sample(completedAt, "perplexity", true, "Acme is the best choice.", retainUntil, List.of(ad));
        LocalDate day = LocalDate.ofInstant(completedAt, ZoneOffset.UTC);
        Map<String, Object> run = tracking(project(), day, "completed", List.of(sample));
        run.put("completedAt", completedAt.toString());
        Kafka.publish(Topics.TRACKING_RUNS, project(), run);
        String path = "/visibility/responses/" + sample.get("executionId");

        Answer before = Waits.until("execution " + sample.get("executionId") + " is readable", WITHIN, () -> get(path),
                r -> r.status() != 404);
        Map<String, Object> retained = e12(before);
        assertThat(Instant.now()).as("read before retainUntil; the machine was too slow").isBefore(retainUntil);
        assertThat(retained).containsEntry("executionId", sample.get("executionId"))
                .containsEntry("promptId", sample.get("promptId")).containsEntry("platform", "perplexity")
                .containsEntry("answerText", "Acme is the best choice.").containsEntry("retained", true)
                .containsEntry("adCaptureMeasured", true).containsEntry("ads", List.of(ad));
        assertThat(Instant.parse((String) retained.get("completedAt"))).isEqualTo(completedAt);

        // spec 2.12: retained false means the retention has expired; the answer is gone, the ads stay
        // read until it shows, and never before retainUntil (the service decided before its answer arrived)
        Map<String, Object> expired = Waits.until("the retention of " + sample.get("executionId") + " expired", WITHIN, () -> {
            Map<String, Object> data = e12(get(path, 200));
            if (Boolean.FALSE.equals(data.get("retained"))) {
                assertThat(Instant.now()).isAfterOrEqualTo(retainUntil);
            }
            return data;
        }, data -> Boolean.FALSE.equals(data.get("retained")));
        assertThat(expired).containsEntry("retained", false).containsEntry("answerText", "")
                .containsEntry("executionId", sample.get("executionId")).containsEntry("ads", List.of(ad));
        assertThat(get(path).body()).doesNotContain("Acme is the best choice.");
        // E12: the execution id comes from the recent-responses listing, filtered here by its prompt
        Map<String, Object> listing = envelope(get("/visibility/responses?promptId=" + sample.get("promptId"), 200), project());
        assertThat(list(listing.get("items"))).singleElement().satisfies(item -> assertThat(item)
                .containsEntry("executionId", sample.get("executionId")).containsEntry("runId", run.get("runId"))
                .containsEntry("retained", false).containsEntry("adCount", 1));
        assertThat(map(listing.get("pagination"))).containsEntry("hasMore", false).containsEntry("nextCursor", null);

        // spec 7: 404 for an out-of-project resource, also with the other project's key on its own path
        assertError(call("GET", otherProject(), path, otherKey(), null), 404, "not_found");
        assertError(call("GET", project(), path, otherKey(), null), 404, "not_found");
        assertError(get("/visibility/responses/" + UUID.randomUUID()), 404, "not_found");
        assertError(get("/visibility/responses/not-a-uuid"), 400, "invalid_request");
    }

    /** E12: {data} with no meta, exactly the fields of 2.12. */
    private static Map<String, Object> e12(Answer response) {
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        JsonShapes.assertValidResponse("e12-retained-response", response.body());
        assertThat(response.json()).containsOnlyKeys("data");
        return response.data();
    }

    private static Map<String, Object> mapOf(Object... keyValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            map.put((String) keyValues[i], keyValues[i + 1]);
        }
        return map;
    }
}
