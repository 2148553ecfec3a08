package dev.visibility.visibility.responses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.platform.events.Topics;
import dev.visibility.visibility.support.Runs;
import dev.visibility.platform.testing.JsonShapes;
import dev.visibility.visibility.support.VisibilityTest;
import dev.visibility.platform.events.TrackingRunCompleted;
import dev.visibility.platform.events.TrackingRunCompleted.Ad;
import dev.visibility.platform.events.TrackingRunCompleted.Sample;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;

/** E12 (spec 2.12) and the recent-responses listing that gives its execution ids. */
class RetainedResponsesTest extends VisibilityTest {

    private static final Ad AD = new Ad("Try Rival", "The rival tool", "rival.example", "Rival Inc.", "Sign up today",
            "https://rival.example/landing?utm=ai");

    private TrackingRunCompleted ingest(UUID project, List<Sample> samples) {
        Instant completedAt = samples.stream().map(Sample::completedAt).max(Instant::compareTo).orElseThrow();
        TrackingRunCompleted run = new TrackingRunCompleted(UUID.randomUUID(), UUID.randomUUID(), project, "acct",
                TrackingRunCompleted.COMPLETED, LocalDate.ofInstant(completedAt, ZoneOffset.UTC), null, completedAt, samples);
        publish(Topics.TRACKING_RUNS, project.toString(), run);
        awaitTrue("run " + run.runId() + " is stored",
                () -> count("SELECT count(*) FROM tracking_runs WHERE run_id = $1", run.runId()) == 1);
        return run;
    }

    private Map<String, Object> e12(UUID project, UUID execution) {
        byte[] body = client.get().uri("/api/v2/projects/{p}/visibility/responses/{e}", project, execution)
                .header(HttpHeaders.AUTHORIZATION, bearer(project)).exchange()
                .expectStatus().isOk().expectBody().returnResult().getResponseBody();
        String json = new String(body, java.nio.charset.StandardCharsets.UTF_8);
        // E12: {data} with no meta, exactly the fields of 2.12
        JsonShapes.assertValidResponse("e12-retained-response", json);
        @SuppressWarnings("unchecked")
        Map<String, Object> parsed = JSON.readValue(json, Map.class);
        assertThat(parsed).containsOnlyKeys("data");
        @SuppressWarnings("unchecked")
        Map<String, Object> data = (Map<String, Object>) parsed.get("data");
        return data;
    }

    @Test
    void retainedResponseHasItsAnswerAndAdsThenLosesTheAnswerWhenRetentionExpires() {
        UUID project = UUID.randomUUID();
        Instant completedAt = Instant.now().minus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.MILLIS);
        Instant retainUntil = Instant.now().plusSeconds(3);
        Sample sample = Runs.sample(completedAt, "perplexity", true, List.of(AD), true, "Acme is the best choice.", retainUntil);
        ingest(project, List.of(sample));

        Map<String, Object> before = e12(project, sample.executionId());
        assertThat(before).containsEntry("executionId", sample.executionId().toString())
                .containsEntry("promptId", sample.promptId().toString())
                .containsEntry("platform", "perplexity")
                .containsEntry("answerText", "Acme is the best choice.")
                .containsEntry("retained", true)
                .containsEntry("adCaptureMeasured", true)
                .containsEntry("ads", List.of(Map.of("title", "Try Rival", "description", "The rival tool",
                        "domain", "rival.example", "name", "Rival Inc.", "body", "Sign up today",
                        "url", "https://rival.example/landing?utm=ai")));
        assertThat(Instant.parse((String) before.get("completedAt"))).isEqualTo(completedAt);

        // spec 2.12: retained false means the answer retention has expired; the answer is gone, the ads
        // stay. Read until it shows, and never before retainUntil.
        Map<String, Object> after = await("retention of " + sample.executionId() + " expired").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100)).until(() -> {
                    Map<String, Object> data = e12(project, sample.executionId());
                    if (Boolean.FALSE.equals(data.get("retained"))) {
                        // the service decided before its answer arrived: not before retainUntil
                        assertThat(Instant.now()).isAfterOrEqualTo(retainUntil);
                    }
                    return data;
                }, data -> Boolean.FALSE.equals(data.get("retained")));
        assertThat(after).containsEntry("retained", false).containsEntry("answerText", "")
                .containsEntry("executionId", sample.executionId().toString());
        assertThat((List<?>) after.get("ads")).hasSize(1);
    }

    @Test
    void answerAlreadyPastItsRetentionIsNeverStoredNorShown() {
        UUID project = UUID.randomUUID();
        Sample expired = Runs.sample(Instant.now().minus(100, ChronoUnit.DAYS), "gemini", false, List.of(), false,
                "An answer that must not be kept", Instant.now().minus(10, ChronoUnit.DAYS));
        ingest(project, List.of(expired));

        Map<String, Object> data = e12(project, expired.executionId());
        assertThat(data).containsEntry("retained", false).containsEntry("answerText", "")
                .containsEntry("adCaptureMeasured", false).containsEntry("ads", List.of());
        assertThat(count("SELECT count(*) FROM responses WHERE execution_id = $1 AND answer_text IS NULL",
                expired.executionId())).isOne();
    }

    @Test
    void executionOfAnotherProjectOrUnknownIs404() {
        UUID project = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        Sample sample = Runs.sample(Instant.now().minusSeconds(60), "chatgpt", true, List.of(), true, "answer", null);
        ingest(project, List.of(sample));

        // spec 7: 404 for an out-of-project resource — the other project's key on its own path
        Map<String, Object> error = errorBody(client.get().uri("/api/v2/projects/{p}/visibility/responses/{e}", other,
                sample.executionId()).header(HttpHeaders.AUTHORIZATION, bearer(other)), 404);
        assertThat(error).containsEntry("error", "not_found");
        errorBody(client.get().uri("/api/v2/projects/{p}/visibility/responses/{e}", project, UUID.randomUUID())
                .header(HttpHeaders.AUTHORIZATION, bearer(project)), 404);
        // spec 4: executionId is a uuid
        errorBody(client.get().uri("/api/v2/projects/{p}/visibility/responses/not-a-uuid", project)
                .header(HttpHeaders.AUTHORIZATION, bearer(project)), 400);
    }

    @Test
    void listingPagesEveryExecutionOnceNewestFirstAndGivesTheIdsE12Reads() {
        UUID project = UUID.randomUUID();
        Instant base = Instant.now().minus(2, ChronoUnit.DAYS).truncatedTo(ChronoUnit.SECONDS);
        List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < 23; i++) {
            // two executions share each completion time: the execution id breaks the tie
            samples.add(Runs.sample(base.plusSeconds(i / 2), i % 3 == 0 ? "gemini" : "chatgpt", i % 2 == 0,
                    i % 4 == 0 ? List.of(AD) : List.of(), true, "answer " + i, null));
        }
        ingest(project, samples);

        List<String> seen = new ArrayList<>();
        List<String> completed = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            Map<String, Object> data = page(project, "limit=5" + (cursor == null ? "" : "&cursor=" + cursor));
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> items = (List<Map<String, Object>>) data.get("items");
            @SuppressWarnings("unchecked")
            Map<String, Object> pagination = (Map<String, Object>) data.get("pagination");
            assertThat(pagination.get("limit")).isEqualTo(5);
            items.forEach(item -> {
                seen.add((String) item.get("executionId"));
                completed.add((String) item.get("completedAt"));
            });
            cursor = (String) pagination.get("nextCursor");
            assertThat(pagination.get("hasMore")).isEqualTo(cursor != null);
            pages++;
        } while (cursor != null);

        assertThat(pages).isEqualTo(5);
        assertThat(seen).doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(samples.stream().map(s -> s.executionId().toString()).toList());
        List<Instant> times = completed.stream().map(Instant::parse).toList();
        assertThat(times).isSortedAccordingTo(java.util.Comparator.reverseOrder());
        // the listed id is what E12 reads
        assertThat(e12(project, UUID.fromString(seen.get(0)))).containsEntry("executionId", seen.get(0));

        Map<String, Object> gemini = page(project, "platform=gemini&limit=100");
        assertThat((List<?>) gemini.get("items")).hasSize(8);
    }

    @Test
    void listingRejectsBadLimitsAndCursorsOfAnotherScope() {
        UUID project = UUID.randomUUID();
        List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            samples.add(Runs.sample(Instant.now().minusSeconds(100 + i), "chatgpt", true, List.of(), true, "a", null));
        }
        ingest(project, samples);
        @SuppressWarnings("unchecked")
        String cursor = (String) ((Map<String, Object>) page(project, "limit=1").get("pagination")).get("nextCursor");
        assertThat(cursor).isNotNull();

        for (String query : List.of("limit=0", "limit=101", "limit=x", "limit=2&cursor=" + cursor,
                "limit=1&platform=chatgpt&cursor=" + cursor, "cursor=" + "a".repeat(2001), "cursor=garbage")) {
            Map<String, Object> error = errorBody(client.get().uri("/api/v2/projects/" + project + "/visibility/responses?" + query)
                    .header(HttpHeaders.AUTHORIZATION, bearer(project)), 400);
            assertThat(error).containsEntry("error", "invalid_request");
        }
        assertThat((List<?>) page(project, "limit=1&cursor=" + cursor).get("items")).hasSize(1);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> page(UUID project, String query) {
        Map<String, Object> body = client.get().uri("/api/v2/projects/" + project + "/visibility/responses?" + query)
                .header(HttpHeaders.AUTHORIZATION, bearer(project)).exchange()
                .expectStatus().isOk().expectBody(Map.class).returnResult().getResponseBody();
        assertThat(body).containsOnlyKeys("data", "meta");
        return (Map<String, Object>) body.get("data");
    }
}
