package dev.visibility.traffic.notfound;

import static dev.visibility.platform.testing.Http.list;
import static dev.visibility.platform.testing.Http.map;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.platform.events.TrafficConfigured;
import dev.visibility.platform.events.TrafficHitObserved;
import dev.visibility.traffic.support.TrafficTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * E11 404 demand (spec 2.11, E11): clusters of the materializer window, content intent apart from
 * scanner noise, the prior window's counts, sensor coverage, and the degraded states.
 */
class NotFoundDemandTest extends TrafficTest {

    static final List<String> CLUSTER_FIELDS = List.of("clusterKey", "demandClassification", "distinctBots", "id",
            "priorRequestCount", "requestCount", "totalClusterCount", "totalRequestCount", "representativePath",
            "samplePaths", "status", "windowStart", "windowEnd", "relevance");

    @Autowired
    NotFoundMaterializer materializer;

    private UUID projectWith404s() {
        UUID project = UUID.randomUUID();
        publishConfigAndAwait(config(project, Instant.parse("2026-01-01T00:00:00Z"),
                List.of(new TrafficConfigured.Domain("acme.dev", true)),
                List.of(source("cloudflare", "cdn", 24, "acme.dev"), source("edge-middleware", "middleware", 24, "acme.dev"))));
        Instant now = ago(Duration.ofMinutes(30));
        Instant prior = ago(Duration.ofDays(9));
        List<TrafficHitObserved> hits = new ArrayList<>();
        hits.add(bot(project, "cloudflare", "acme.dev", "/docs/api/webhooks/retries", 404, "GPTBot", "a", now));
        hits.add(bot(project, "cloudflare", "acme.dev", "/docs/api/webhooks/retries", 404, "GPTBot", "a", now));
        hits.add(bot(project, "cloudflare", "acme.dev", "/docs/api/webhooks/retries?x=1", 404, "ClaudeBot", "b", now));
        hits.add(bot(project, "cloudflare", "acme.dev", "/docs/api/rate-limits", 404, "PerplexityBot", "c", now));
        hits.add(referral(project, "cloudflare", "acme.dev", "/pricing/enterprise", 404, "chatgpt.com", "d", now));
        hits.add(bot(project, "cloudflare", "acme.dev", "/wp-admin/setup-config.php", 404, "GPTBot", "e", now));
        hits.add(bot(project, "cloudflare", "acme.dev", "/wp-admin/setup-config.php", 404, "GPTBot", "e", now));
        hits.add(bot(project, "cloudflare", "acme.dev", "/xmlrpc.php", 404, "Bytespider", "e", now));
        hits.add(bot(project, "cloudflare", "acme.dev", "/.env", 404, "Bytespider", "f", now));
        hits.add(bot(project, "cloudflare", "acme.dev", "/api/.env", 404, "Bytespider", "f", now));
        hits.add(bot(project, "cloudflare", "acme.dev", "/phpinfo.php", 404, "Bytespider", "f", now));
        hits.add(bot(project, "edge-middleware", "acme.dev", "/docs/api", 200, "GPTBot", "a", now));
        hits.add(bot(project, "cloudflare", "acme.dev", "/docs/api/old", 404, "GPTBot", "g", prior));
        hits.add(bot(project, "cloudflare", "acme.dev", "/docs/api/old", 404, "GPTBot", "g", prior));
        hits.add(bot(project, "cloudflare", "acme.dev", "/ancient", 404, "GPTBot", "g", ago(Duration.ofDays(20))));
        publishHitsAndAwait(project, hits, hits.size());
        return project;
    }

    @Test
    void clustersSeparateContentIntentFromScannerNoiseInTheShapeOfSpec211() {
        UUID project = projectWith404s();
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        assertThat(materializer.materialize(project, today.minusDays(6), today).block()).isTrue();

        Map<String, Object> data = data(project, "/traffic/404-demand");
        assertThat(data).containsOnlyKeys("clusters", "suspectedNoiseClusters", "dataAvailability", "dataScope",
                "hasObservedDemand", "state", "trafficSensors");
        assertThat(data).containsEntry("dataAvailability", "available").containsEntry("dataScope", "project")
                .containsEntry("hasObservedDemand", true);
        Map<String, Object> state = map(data.get("state"));
        assertThat(state).containsOnlyKeys("clusterCount", "requestCount", "completedAt", "lastError", "status",
                "windowStart", "windowEnd");
        assertThat(state).containsEntry("clusterCount", 5).containsEntry("requestCount", 11).containsEntry("status", "completed")
                .containsEntry("lastError", null).containsEntry("windowStart", today.minusDays(6).toString())
                .containsEntry("windowEnd", today.toString());
        Instant.parse((String) state.get("completedAt"));
        assertThat(map(data.get("trafficSensors"))).isEqualTo(Map.of("connectedProviders", List.of("cloudflare", "edge-middleware"),
                "hasConnectedSensor", true, "middlewareConnected", true));

        List<Map<String, Object>> clusters = list(data.get("clusters"));
        List<Map<String, Object>> noise = list(data.get("suspectedNoiseClusters"));
        for (Map<String, Object> cluster : concat(clusters, noise)) {
            assertThat(cluster.keySet()).containsExactlyInAnyOrderElementsOf(CLUSTER_FIELDS);
            assertThat(map(cluster.get("relevance"))).containsOnlyKeys("category", "reason");
            assertThat(cluster).containsEntry("totalClusterCount", 5).containsEntry("totalRequestCount", 11)
                    .containsEntry("windowStart", today.minusDays(6).toString()).containsEntry("windowEnd", today.toString());
            UUID.fromString((String) cluster.get("id"));
        }
        assertThat(clusters).extracting(c -> c.get("clusterKey")).containsExactly("/docs/api", "/pricing/enterprise");
        Map<String, Object> docs = clusters.get(0);
        assertThat(docs).containsEntry("demandClassification", "content_intent").containsEntry("requestCount", 4)
                .containsEntry("priorRequestCount", 2).containsEntry("distinctBots", 3).containsEntry("status", "recurring")
                .containsEntry("representativePath", "/docs/api/webhooks/retries")
                .containsEntry("samplePaths", List.of("/docs/api/webhooks/retries", "/docs/api/rate-limits"));
        assertThat(map(docs.get("relevance"))).containsEntry("category", "relevant");
        assertThat(clusters.get(1)).containsEntry("requestCount", 1).containsEntry("priorRequestCount", 0)
                .containsEntry("distinctBots", 0).containsEntry("status", "new");
        assertThat(map(clusters.get(1).get("relevance"))).containsEntry("category", "low_volume");

        assertThat(noise).extracting(c -> c.get("clusterKey") + " " + c.get("requestCount"))
                .containsExactly("noise:wordpress 3", "noise:dotenv 2", "noise:php 1");
        assertThat(noise).allSatisfy(c -> {
            assertThat(c).containsEntry("demandClassification", "suspected_noise");
            assertThat(map(c.get("relevance"))).containsEntry("category", "noise");
        });
        // ids are stable per project and cluster
        assertThat(materializer.materialize(project, today.minusDays(6), today).block()).isTrue();
        assertThat(list(data(project, "/traffic/404-demand").get("clusters")).get(0).get("id")).isEqualTo(docs.get("id"));
    }

    @Test
    void withoutAConnectedSensorTheAnswerSaysSo() {
        UUID project = UUID.randomUUID();
        // never materialized, no sensor at all
        Map<String, Object> data = data(project, "/traffic/404-demand");
        assertThat(data).containsEntry("dataAvailability", "no_sensor_connected").containsEntry("hasObservedDemand", false)
                .containsEntry("clusters", List.of()).containsEntry("suspectedNoiseClusters", List.of());
        assertThat(map(data.get("state"))).containsEntry("status", "pending").containsEntry("clusterCount", 0)
                .containsEntry("completedAt", null);
        assertThat(map(data.get("trafficSensors"))).isEqualTo(Map.of("connectedProviders", List.of(),
                "hasConnectedSensor", false, "middlewareConnected", false));

        // a source whose last hit left its 24-hour window is not connected; its 404s are still clustered
        publishHitsAndAwait(project, List.of(bot(project, "cloudflare", "acme.dev", "/docs/x", 404, "GPTBot", "s",
                ago(Duration.ofDays(2)))), 1);
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        assertThat(materializer.materialize(project, today.minusDays(6), today).block()).isTrue();
        data = data(project, "/traffic/404-demand");
        assertThat(data).containsEntry("dataAvailability", "no_sensor_connected").containsEntry("hasObservedDemand", true);
        assertThat(map(data.get("state"))).containsEntry("status", "completed").containsEntry("requestCount", 1);
        assertThat(map(data.get("trafficSensors"))).containsEntry("hasConnectedSensor", false);
    }

    @Test
    void aFailedMaterializationIsReportedAndKeepsTheLastClusters() {
        UUID project = projectWith404s();
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        assertThat(materializer.materialize(project, today.minusDays(6), today).block()).isTrue();
        Map<String, Object> before = data(project, "/traffic/404-demand");

        db.sql("ALTER TABLE not_found_days RENAME TO not_found_days_away").fetch().rowsUpdated().block();
        try {
            assertThat(materializer.materialize(project, today.minusDays(6), today).block()).isFalse();
        } finally {
            db.sql("ALTER TABLE not_found_days_away RENAME TO not_found_days").fetch().rowsUpdated().block();
        }
        Map<String, Object> data = data(project, "/traffic/404-demand");
        assertThat(data).containsEntry("dataAvailability", "materializer_failed");
        Map<String, Object> state = map(data.get("state"));
        assertThat(state).containsEntry("status", "failed")
                .containsEntry("lastError", "materialization failed reading the 404 window (internal error)")
                .containsEntry("completedAt", map(before.get("state")).get("completedAt"));
        assertThat(data.get("clusters")).isEqualTo(before.get("clusters"));

        // the next run recovers
        assertThat(materializer.materialize(project, today.minusDays(6), today).block()).isTrue();
        assertThat(data(project, "/traffic/404-demand")).containsEntry("dataAvailability", "available");
        assertThat(map(data(project, "/traffic/404-demand").get("state"))).containsEntry("lastError", null);
    }

    @Test
    void theScheduledRunMaterializesEveryProjectWithSensorsOr404s() {
        UUID project = projectWith404s();
        assertThat(materializer.materializeAll().block()).isGreaterThanOrEqualTo(1L);
        assertThat(map(data(project, "/traffic/404-demand").get("state"))).containsEntry("status", "completed")
                .containsEntry("requestCount", 11);
    }

    private static List<Map<String, Object>> concat(List<Map<String, Object>> a, List<Map<String, Object>> b) {
        List<Map<String, Object>> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
