package dev.visibility.traffic.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.platform.events.AdoptionMetricSampled;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.events.TrafficConfigured;
import dev.visibility.platform.events.TrafficHitObserved;
import dev.visibility.platform.testing.Http;
import dev.visibility.platform.testing.JsonShapes;
import dev.visibility.platform.testing.ServiceTest;
import dev.visibility.platform.testing.TestTokens;
import org.springframework.http.HttpHeaders;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Base of the module's integration tests ({@link ServiceTest}: the one Spring context on the shared
 * broker and database, records through the real topics, HTTP through the real server), with what
 * is traffic-service's own: its records, the waits for its rollups, its tokens and answers. Each
 * test uses fresh project ids.
 */
public abstract class TrafficTest extends ServiceTest {

    protected void publishHits(UUID project, List<?> hits) {
        publish(Topics.TRAFFIC_HITS, project.toString(), hits);
    }

    /** Publishes the hits and waits until the project's total over 90 days has grown by {@code expectedNew}. */
    protected void publishHitsAndAwait(UUID project, List<?> hits, long expectedNew) {
        long before = totalEvents(project);
        publishHits(project, hits);
        awaitTotal(project, before + expectedNew);
    }

    protected void awaitTotal(UUID project, long total) {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(100)).until(() -> totalEvents(project) >= total);
        assertThat(totalEvents(project)).isEqualTo(total);
    }

    protected long totalEvents(UUID project) {
        return count("SELECT coalesce(sum(total_events), 0)::bigint FROM traffic_days WHERE project_id = $1 AND hostname = ''",
                project);
    }

    protected static Instant ago(Duration duration) {
        return Instant.now().minus(duration).truncatedTo(ChronoUnit.MILLIS);
    }

    protected static TrafficHitObserved bot(UUID project, String source, String hostname, String path, int status,
            String botName, String session, Instant at) {
        return new TrafficHitObserved(UUID.randomUUID(), project, source, hostname, path, status, botName, null, session, at);
    }

    protected static TrafficHitObserved referral(UUID project, String source, String hostname, String path, int status,
            String referrer, String session, Instant at) {
        return new TrafficHitObserved(UUID.randomUUID(), project, source, hostname, path, status, null, referrer, session, at);
    }

    protected static TrafficConfigured config(UUID project, Instant at, List<TrafficConfigured.Domain> domains,
            List<TrafficConfigured.Source> sources) {
        return new TrafficConfigured(UUID.randomUUID(), project, at, domains, sources);
    }

    protected static TrafficConfigured.Source source(String name, String kind, int hours, String... domains) {
        return new TrafficConfigured.Source(name, kind, BigDecimal.valueOf(hours), List.of(domains));
    }

    protected static AdoptionMetricSampled sample(UUID project, String domain, boolean primary, String metric,
            String source, long value, Instant at) {
        return new AdoptionMetricSampled(UUID.randomUUID(), project, domain, primary, metric, source,
                BigDecimal.valueOf(value), at);
    }

    protected void publishConfigAndAwait(TrafficConfigured config) {
        publish(Topics.TRAFFIC_CONFIG, config.projectId().toString(), List.of(config));
        await().atMost(WAIT).pollInterval(Duration.ofMillis(100)).until(() -> count(
                "SELECT count(*) FROM project_config WHERE project_id = $1 AND configured_at = '"
                        + config.configuredAt() + "'::timestamptz", config.projectId()) == 1);
    }

    protected static String bearer(UUID project) {
        return TestTokens.bearer(TestTokens.forProject(project.toString(), "traffic.read", "adoption.read"));
    }

    protected WebTestClient.RequestHeadersSpec<?> get(UUID project, String pathAndQuery) {
        return client.get().uri("/api/v2/projects/" + project + pathAndQuery).header(HttpHeaders.AUTHORIZATION, bearer(project));
    }

    /** A successful answer: asserts the {data, meta} envelope of spec 2.1 and answers data. */
    protected Map<String, Object> data(UUID project, String pathAndQuery) {
        return JsonShapes.assertEnvelope(Http.json(get(project, pathAndQuery), 200), project.toString());
    }

    /** Asserts the error shape of spec 7 with the given status and answers the parsed body. */
    protected Map<String, Object> error(UUID project, String pathAndQuery, int status) {
        return Http.error(get(project, pathAndQuery), status);
    }
}
