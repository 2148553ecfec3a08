package dev.visibility.visibility.summary;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.platform.events.Topics;
import dev.visibility.visibility.support.Runs;
import dev.visibility.visibility.support.VisibilityTest;
import dev.visibility.platform.events.TrackingRunCompleted;
import dev.visibility.platform.events.TrackingRunCompleted.Ad;
import dev.visibility.platform.events.TrackingRunCompleted.Sample;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;

/**
 * E17 visibility summary (shape documented in the README): latest metrics with the previous run
 * and the change, the trend per capture day over 30 or 90 days, and ad rates from captured ads.
 */
class VisibilitySummaryTest extends VisibilityTest {

    private static Ad ad(String domain) {
        return new Ad("Ad of " + domain, "d", domain, domain, "b", "https://" + domain + "/");
    }

    private static TrackingRunCompleted later(TrackingRunCompleted run, long hours) {
        return new TrackingRunCompleted(run.eventId(), run.runId(), run.projectId(), run.accountId(), run.finalStatus(),
                run.capturedOn(), run.startedAt(), run.completedAt().plusSeconds(hours * 3600), run.samples());
    }

    @Test
    void summaryHasLatestPreviousChangeTrendAndAdRates() {
        UUID project = UUID.randomUUID();
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        TrackingRunCompleted sameDayEarlier = Runs.completed(project, "acct", today.minusDays(3), 4, 2);
        TrackingRunCompleted sameDayLater = later(Runs.completed(project, "acct", today.minusDays(3), 4, 4), 1);
        Instant d = today.minusDays(1).atTime(6, 0).toInstant(ZoneOffset.UTC);
        List<Sample> adSamples = List.of(
                Runs.sample(d.minusSeconds(5), "perplexity", true, List.of(ad("rival.example")), true, "a", null),
                Runs.sample(d.minusSeconds(4), "perplexity", false, List.of(ad("rival.example"), ad("other.example")), true, "b", null),
                Runs.sample(d.minusSeconds(3), "perplexity", false, List.of(), true, "c", null),
                // ads were not looked for here: it counts in no rate
                Runs.sample(d.minusSeconds(2), "perplexity", false, List.of(ad("other.example")), false, "d", null),
                Runs.sample(d.minusSeconds(1), "gemini", false, List.of(), true, "e", null));
        TrackingRunCompleted latest = new TrackingRunCompleted(UUID.randomUUID(), UUID.randomUUID(), project, "acct",
                TrackingRunCompleted.COMPLETED, today.minusDays(1), null, d, adSamples);
        List<TrackingRunCompleted> runs = List.of(
                Runs.completed(project, "acct", today.minusDays(100), 2, 2),
                Runs.completed(project, "acct", today.minusDays(60), 1, 1),
                Runs.completed(project, "acct", today.minusDays(20), 4, 1),
                Runs.run(project, "acct", today.minusDays(2), TrackingRunCompleted.FAILED, 3, 3),
                sameDayEarlier, sameDayLater, latest);
        runs.forEach(run -> publish(Topics.TRACKING_RUNS, project.toString(), run));
        awaitTrue("all runs are stored", () -> count("SELECT count(*) FROM tracking_runs WHERE project_id = $1", project) == 7);

        Map<String, Object> data = summary(project, "");
        assertThat(data.get("latest")).isEqualTo(Map.of("runId", latest.runId().toString(),
                "capturedOn", today.minusDays(1).toString(), "visibilityScore", 20.0, "citationCount", 2,
                "brandMentionCount", 3, "sampleCount", 5));
        assertThat(data.get("previous")).isEqualTo(Map.of("runId", sameDayLater.runId().toString(),
                "capturedOn", today.minusDays(3).toString(), "visibilityScore", 100.0, "citationCount", 8,
                "brandMentionCount", 12, "sampleCount", 4));
        assertThat(data.get("change")).isEqualTo(Map.of("visibilityScore", -80.0, "citationCount", -6,
                "brandMentionCount", -9, "sampleCount", 1));
        // failed runs have no metrics; two runs of one day make one point over all their samples
        assertThat(data.get("trend")).isEqualTo(List.of(
                Map.of("capturedOn", today.minusDays(20).toString(), "runCount", 1, "visibilityScore", 25.0,
                        "citationCount", 2, "brandMentionCount", 3, "sampleCount", 4),
                Map.of("capturedOn", today.minusDays(3).toString(), "runCount", 2, "visibilityScore", 75.0,
                        "citationCount", 12, "brandMentionCount", 18, "sampleCount", 8),
                Map.of("capturedOn", today.minusDays(1).toString(), "runCount", 1, "visibilityScore", 20.0,
                        "citationCount", 2, "brandMentionCount", 3, "sampleCount", 5)));
        assertThat(data.get("window")).isEqualTo(Map.of("days", 30, "dateFrom", today.minusDays(29).toString(),
                "dateTo", today.toString()));
        // measured answers in the window: chatgpt 4+4+4 (+3 of the failed run), gemini 1, perplexity 3
        assertThat(data.get("advertising")).isEqualTo(Map.of(
                "measuredSampleCount", 19, "samplesWithAdsCount", 2, "adRate", 10.5, "adCount", 3,
                "platforms", List.of(
                        Map.of("platform", "chatgpt", "measuredSampleCount", 15, "samplesWithAdsCount", 0, "adRate", 0.0, "adCount", 0),
                        Map.of("platform", "gemini", "measuredSampleCount", 1, "samplesWithAdsCount", 0, "adRate", 0.0, "adCount", 0),
                        Map.of("platform", "perplexity", "measuredSampleCount", 3, "samplesWithAdsCount", 2, "adRate", 66.7, "adCount", 3)),
                "topAdvertisers", List.of(Map.of("domain", "rival.example", "adCount", 2),
                        Map.of("domain", "other.example", "adCount", 1))));

        @SuppressWarnings("unchecked")
        List<Map<String, Object>> ninety = (List<Map<String, Object>>) summary(project, "?days=90").get("trend");
        assertThat(ninety).extracting(p -> p.get("capturedOn")).containsExactly(today.minusDays(60).toString(),
                today.minusDays(20).toString(), today.minusDays(3).toString(), today.minusDays(1).toString());
    }

    @Test
    void projectWithoutRunsHasEmptySummary() {
        UUID project = UUID.randomUUID();
        Map<String, Object> data = summary(project, "?days=90");
        assertThat(data).containsEntry("latest", null).containsEntry("previous", null).containsEntry("change", null)
                .containsEntry("trend", List.of());
        @SuppressWarnings("unchecked")
        Map<String, Object> advertising = (Map<String, Object>) data.get("advertising");
        assertThat(advertising).containsEntry("measuredSampleCount", 0).containsEntry("adRate", null);
    }

    @Test
    void unsupportedWindowIs400() {
        UUID project = UUID.randomUUID();
        for (String days : List.of("7", "365", "", "x")) {
            Map<String, Object> error = errorBody(client.get().uri("/api/v2/projects/" + project + "/visibility/summary?days=" + days)
                    .header(HttpHeaders.AUTHORIZATION, bearer(project)), 400);
            assertThat((String) error.get("message")).contains("days");
        }
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> summary(UUID project, String query) {
        Map<String, Object> body = client.get().uri("/api/v2/projects/" + project + "/visibility/summary" + query)
                .header(HttpHeaders.AUTHORIZATION, bearer(project)).exchange()
                .expectStatus().isOk().expectBody(Map.class).returnResult().getResponseBody();
        assertThat(body).containsOnlyKeys("data", "meta");
        assertThat((Map<String, Object>) body.get("meta")).containsEntry("projectId", project.toString());
        return (Map<String, Object>) body.get("data");
    }
}
