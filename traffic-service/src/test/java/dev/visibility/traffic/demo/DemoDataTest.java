package dev.visibility.traffic.demo;

import static dev.visibility.platform.testing.Http.list;
import static dev.visibility.platform.testing.Http.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.platform.consumer.TopicSchemas;
import dev.visibility.platform.events.AdoptionMetricSampled;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.events.TrafficHitObserved;
import dev.visibility.traffic.notfound.NotFoundMaterializer;
import dev.visibility.traffic.support.TrafficTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The local demo, published through the real topics as DemoPublisher does: every record matches its
 * topic's schema, and the answers show what the issue asks of the demo (two hostnames, bots and
 * referrals, active and stale sensors, content-intent and noise 404s, a primary and a secondary
 * adoption domain).
 */
class DemoDataTest extends TrafficTest {

    @Autowired
    NotFoundMaterializer materializer;

    @Test
    void theDemoProjectShowsEveryPartOfE4E5AndE11() {
        UUID project = UUID.randomUUID();
        DemoData demo = new DemoData(project, Instant.now());
        List<TrafficHitObserved> hits = demo.hits(90, true);
        List<AdoptionMetricSampled> samples = demo.adoption(90, true);
        TopicSchemas schemas = new TopicSchemas();
        assertThat(schemas.violations(Topics.TRAFFIC_CONFIG, mapper.valueToTree(demo.configuration(true)))).isNull();
        hits.forEach(hit -> assertThat(schemas.violations(Topics.TRAFFIC_HITS, mapper.valueToTree(hit))).isNull());
        samples.forEach(s -> assertThat(schemas.violations(Topics.ADOPTION_METRICS, mapper.valueToTree(s))).isNull());
        assertThat(hits.size()).isBetween(25_000, 45_000);
        assertThat(hits).extracting(TrafficHitObserved::hostname).containsOnly("acme.dev", "docs.acme.dev");

        publishConfigAndAwait(demo.configuration(true));
        publish(Topics.ADOPTION_METRICS, project.toString(), samples);
        publishHitsAndAwait(project, hits, hits.size());
        await().atMost(WAIT).until(() -> count("SELECT count(*) FROM adoption_samples WHERE project_id = $1", project)
                == samples.size());

        Map<String, Object> e4 = data(project, "/traffic/summary?days=90");
        assertThat(((Number) e4.get("totalEvents")).longValue()).isEqualTo(hits.size());
        assertThat(((Number) e4.get("botEvents")).longValue()).isPositive();
        assertThat(((Number) e4.get("referralEvents")).longValue()).isPositive();
        assertThat(((Number) e4.get("uniqueSessions")).longValue()).isPositive().isLessThan(hits.size());
        assertThat(list(map(e4.get("sensors")).get("sources"))).extracting(s -> s.get("source") + ":" + s.get("state"))
                .containsExactly("cloudflare:active", "fastly-logs:stale", "vercel-middleware:active");
        Map<String, Object> docs = data(project, "/traffic/summary?domain=docs.acme.dev&pathPrefix=/docs/api");
        assertThat(((Number) docs.get("totalEvents")).longValue()).isPositive()
                .isLessThan(((Number) data(project, "/traffic/summary").get("totalEvents")).longValue());

        assertThat(materializer.materializeAll().block()).isPositive();
        Map<String, Object> e11 = data(project, "/traffic/404-demand");
        assertThat(e11).containsEntry("dataAvailability", "available").containsEntry("hasObservedDemand", true);
        assertThat(list(e11.get("clusters"))).extracting(c -> c.get("clusterKey"))
                .contains("/docs/api", "/pricing/enterprise");
        assertThat(list(e11.get("suspectedNoiseClusters"))).extracting(c -> c.get("clusterKey"))
                .contains("noise:wordpress", "noise:dotenv", "noise:php");
        assertThat(map(e11.get("trafficSensors"))).containsEntry("middlewareConnected", true);

        Map<String, Object> e5 = data(project, "/adoption/metrics");
        assertThat(list(e5.get("domains"))).extracting(d -> d.get("domain") + ":" + d.get("isPrimary"))
                .containsExactly("acme.dev:true", "acme-sdk.io:false", "docs.acme.dev:false");
        assertThat(list(e5.get("metrics"))).extracting(m -> m.get("domain")).contains("acme.dev", "acme-sdk.io");
    }
}
