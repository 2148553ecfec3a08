package dev.visibility.traffic.adoption;

import static dev.visibility.platform.testing.Http.list;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.platform.events.AdoptionMetricSampled;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.events.TrafficConfigured;
import dev.visibility.traffic.support.TrafficTest;
import org.junit.jupiter.api.Test;

/** E5 adoption metrics (spec 2.7, E5, section 8): samples of the window, the metric filter, the project's domains. */
class AdoptionMetricsTest extends TrafficTest {

    @Test
    void metricsOfTheWindowWithTheirDomainsInTheShapeOfSpec27() {
        UUID project = UUID.randomUUID();
        // the configuration makes acme.dev primary; the poller's own isPrimary is overruled for it
        publishConfigAndAwait(config(project, Instant.parse("2026-01-01T00:00:00Z"),
                List.of(new TrafficConfigured.Domain("acme.dev", true), new TrafficConfigured.Domain("docs.acme.dev", false)),
                List.of()));
        Instant d1 = ago(Duration.ofDays(1));
        Instant d10 = ago(Duration.ofDays(10));
        Instant d60 = ago(Duration.ofDays(60));
        AdoptionMetricSampled stars = sample(project, "acme.dev", false, "code_host_stars", "github", 1200, d1);
        List<AdoptionMetricSampled> samples = List.of(
                stars,
                sample(project, "acme.dev", true, "code_host_stars", "github", 1100, d10),
                sample(project, "acme.dev", true, "weekly_downloads", "npm", 54000, d1),
                sample(project, "acme.dev", true, "weekly_downloads", "npm", 41000, d60),
                sample(project, "SDK.acme.dev", false, "weekly_downloads", "pypi", 800, d1),
                // the same sample again with another eventId: it replaces the value, it adds no sample
                new AdoptionMetricSampled(UUID.randomUUID(), project, "acme.dev", false, "code_host_stars", "github",
                        java.math.BigDecimal.valueOf(1250), d1));
        publish(Topics.ADOPTION_METRICS, project.toString(), samples);
        await().atMost(WAIT).until(() -> count("SELECT count(*) FROM adoption_samples WHERE project_id = $1", project) == 5
                && count("SELECT count(*) FROM adoption_samples WHERE project_id = $1 AND value = 1250", project) == 1);

        Map<String, Object> data = data(project, "/adoption/metrics");
        assertThat(data).containsOnlyKeys("metrics", "domains");
        List<Map<String, Object>> domains = list(data.get("domains"));
        assertThat(domains).allSatisfy(d -> assertThat(d).containsOnlyKeys("id", "domain", "isPrimary"));
        assertThat(domains).extracting(d -> d.get("domain") + ":" + d.get("isPrimary"))
                .containsExactly("acme.dev:true", "docs.acme.dev:false", "sdk.acme.dev:false");
        domains.forEach(d -> UUID.fromString((String) d.get("id")));

        List<Map<String, Object>> metrics = list(data.get("metrics"));
        assertThat(metrics).allSatisfy(m -> assertThat(m).containsOnlyKeys("domain", "isPrimary", "metric", "source",
                "value", "capturedAt"));
        // 30 days: the 60-day-old sample is out; primary domain first, then domain, metric, source, time
        assertThat(metrics).extracting(m -> m.get("domain") + " " + m.get("isPrimary") + " " + m.get("metric") + " "
                + m.get("source") + " " + m.get("value") + " " + Instant.parse((String) m.get("capturedAt")))
                .containsExactly(
                        "acme.dev true code_host_stars github 1100 " + d10,
                        "acme.dev true code_host_stars github 1250 " + d1,
                        "acme.dev true weekly_downloads npm 54000 " + d1,
                        "sdk.acme.dev false weekly_downloads pypi 800 " + d1);

        assertThat(list(data(project, "/adoption/metrics?days=90").get("metrics"))).hasSize(5);
        assertThat(list(data(project, "/adoption/metrics?days=90&metric=weekly_downloads").get("metrics")))
                .extracting(m -> m.get("value")).containsExactly(41000, 54000, 800);
        assertThat(list(data(project, "/adoption/metrics?metric=code_host_stars").get("metrics")))
                .extracting(m -> m.get("metric")).containsOnly("code_host_stars").hasSize(2);
    }

    @Test
    void withinOnePublishTheLaterSampleOfAKeyWinsAsIfAppliedAfterTheEarlierOne() {
        UUID project = UUID.randomUUID();
        Instant d1 = ago(Duration.ofDays(1));
        // sent together (the consumer applies a poll with one statement per table): the later sample of a
        // key replaces the earlier one's value, and an unconfigured domain takes the later isPrimary
        publish(Topics.ADOPTION_METRICS, project.toString(), List.of(
                sample(project, "lib.example", false, "weekly_downloads", "npm", 10, d1),
                sample(project, "lib.example", true, "weekly_downloads", "npm", 20, d1),
                sample(project, "other.example", true, "weekly_downloads", "npm", 5, d1),
                sample(project, "other.example", false, "weekly_downloads", "npm", 6, d1)));
        await().atMost(WAIT).until(() -> count("SELECT count(*) FROM adoption_samples WHERE project_id = $1", project) == 2
                && count("SELECT count(*) FROM adoption_samples WHERE project_id = $1 AND value IN (20, 6)", project) == 2);

        Map<String, Object> data = data(project, "/adoption/metrics");
        assertThat(list(data.get("domains"))).extracting(d -> d.get("domain") + ":" + d.get("isPrimary"))
                .containsExactlyInAnyOrder("lib.example:true", "other.example:false");
        assertThat(list(data.get("metrics"))).extracting(m -> m.get("domain") + " " + m.get("value"))
                .containsExactlyInAnyOrder("lib.example 20", "other.example 6");
    }

    @Test
    void aProjectWithoutSamplesHasEmptyLists() {
        UUID project = UUID.randomUUID();
        assertThat(data(project, "/adoption/metrics?days=90")).isEqualTo(Map.of("metrics", List.of(), "domains", List.of()));
    }

    @Test
    void badParametersAre400NamingTheParameter() {
        UUID project = UUID.randomUUID();
        Map<String, String> bad = Map.of("?days=7", "days", "?days=", "days", "?days=365", "days",
                "?metric=stars", "metric", "?metric=", "metric", "?metric=WEEKLY_DOWNLOADS", "metric");
        bad.forEach((query, parameter) -> {
            Map<String, Object> error = error(project, "/adoption/metrics" + query, 400);
            assertThat(error).containsEntry("error", "invalid_request");
            assertThat((String) error.get("message")).as(query).contains("'" + parameter + "'");
        });
    }
}
