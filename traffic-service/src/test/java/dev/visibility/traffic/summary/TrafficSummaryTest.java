package dev.visibility.traffic.summary;

import static dev.visibility.platform.testing.Http.list;
import static dev.visibility.platform.testing.Http.map;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.platform.events.TrafficConfigured;
import dev.visibility.platform.events.TrafficHitObserved;
import dev.visibility.traffic.support.TrafficTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * E4 traffic summary (spec 2.6, E4, section 8): totals per window and filter from the rollups,
 * exact distinct sessions, the project-wide sensor state, and 400s naming the parameter.
 */
class TrafficSummaryTest extends TrafficTest {

    UUID project;
    Instant h1;
    Instant h6;

    /**
     * Three sources: cloudflare (24 h, acme.dev), vercel-middleware (6 h, docs.acme.dev; its last hit
     * is 10 h old: stale), fastly (48 h, no hit yet). Hits in two deliveries, so that session s1's
     * last day moves between batches (the session histograms follow it).
     */
    @BeforeEach
    void hits() {
        project = UUID.randomUUID();
        publishConfigAndAwait(config(project, Instant.parse("2026-01-01T00:00:00Z"),
                List.of(new TrafficConfigured.Domain("acme.dev", true), new TrafficConfigured.Domain("docs.acme.dev", false)),
                List.of(source("cloudflare", "cdn", 24, "acme.dev"), source("vercel-middleware", "middleware", 6, "docs.acme.dev"),
                        source("fastly", "log_drain", 48))));
        h1 = ago(Duration.ofHours(1));
        h6 = ago(Duration.ofHours(10));
        List<TrafficHitObserved> older = List.of(
                bot(project, "cloudflare", "acme.dev", "/docs/api", 200, "GPTBot", "s1", ago(Duration.ofDays(2))),
                bot(project, "cloudflare", "acme.dev", "/docs", 200, "ClaudeBot", "s2", ago(Duration.ofDays(3))),
                referral(project, "cloudflare", "acme.dev", "/pricing", 200, "perplexity.ai", "s1", ago(Duration.ofDays(5))),
                bot(project, "cloudflare", "acme.dev", "/docs/guides", 404, "PerplexityBot", "s5", ago(Duration.ofDays(40))));
        publishHitsAndAwait(project, older, 4);
        List<TrafficHitObserved> newer = List.of(
                bot(project, "cloudflare", "ACME.dev", "/docs/api/auth", 200, "GPTBot", "s1", h1),
                referral(project, "cloudflare", "acme.dev", "/docsx/other", 200, "chatgpt.com", "s3", ago(Duration.ofDays(1))),
                bot(project, "vercel-middleware", "docs.acme.dev", "/docs/api/webhooks", 200, "GPTBot", "s4", h6),
                referral(project, "cloudflare", "acme.dev", "/docs/api/auth/?utm=x", 200, "https://chatgpt.com/", "s6",
                        ago(Duration.ofDays(1))));
        publishHitsAndAwait(project, newer, 4);
    }

    @Test
    void summaryHasExactlyTheFieldsOfSpec26() {
        Map<String, Object> data = data(project, "/traffic/summary");
        assertThat(data).containsOnlyKeys("totalEvents", "botEvents", "referralEvents", "uniqueSessions", "botSessions",
                "referralSessions", "sensors", "window");
        assertThat(map(data.get("sensors"))).containsOnlyKeys("asOf", "sources");
        Instant.parse((String) map(data.get("sensors")).get("asOf"));
        for (Map<String, Object> source : list(map(data.get("sensors")).get("sources"))) {
            assertThat(source).containsOnlyKeys("source", "state", "lastAcceptedAt", "freshnessWindowHours",
                    "observedHostnames", "configuredDomains");
            for (Map<String, Object> hostname : list(source.get("observedHostnames"))) {
                assertThat(hostname).containsOnlyKeys("hostname", "lastAcceptedAt");
            }
        }
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        assertThat(map(data.get("window"))).isEqualTo(Map.of("days", 30, "dateFrom", today.minusDays(29).toString(),
                "dateTo", today.toString()));
    }

    @Test
    void totalsCountEventsAndDistinctSessionsOfTheWindow() {
        // 30 days: all but the hit of 40 days ago; s1 has bot and referral hits, counted once per kind
        assertThat(totals(data(project, "/traffic/summary"))).containsExactly(7L, 4L, 3L, 5L, 3L, 3L);
        assertThat(totals(data(project, "/traffic/summary?days=30"))).containsExactly(7L, 4L, 3L, 5L, 3L, 3L);
        Map<String, Object> ninety = data(project, "/traffic/summary?days=90");
        assertThat(totals(ninety)).containsExactly(8L, 5L, 3L, 6L, 4L, 3L);
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        assertThat(map(ninety.get("window"))).isEqualTo(Map.of("days", 90, "dateFrom", today.minusDays(89).toString(),
                "dateTo", today.toString()));
    }

    @Test
    void domainNarrowsTheTotalsToOneHostnameCaseInsensitively() {
        assertThat(totals(data(project, "/traffic/summary?domain=acme.dev"))).containsExactly(6L, 3L, 3L, 4L, 2L, 3L);
        assertThat(totals(data(project, "/traffic/summary?domain=ACME.DEV"))).containsExactly(6L, 3L, 3L, 4L, 2L, 3L);
        assertThat(totals(data(project, "/traffic/summary?domain=docs.acme.dev"))).containsExactly(1L, 1L, 0L, 1L, 1L, 0L);
        assertThat(totals(data(project, "/traffic/summary?domain=other.dev"))).containsExactly(0L, 0L, 0L, 0L, 0L, 0L);
    }

    @Test
    void pathPrefixIncludesThePathAndItsDescendantsOnly() {
        // /docs, /docs/api, /docs/api/auth and /docs/api/auth/ (query ignored) are in; /docsx/other and /pricing are not;
        // s1's referral was on /pricing, so it is no referral session of /docs
        assertThat(totals(data(project, "/traffic/summary?domain=acme.dev&pathPrefix=/docs"))).containsExactly(4L, 3L, 1L, 3L, 2L, 1L);
        assertThat(totals(data(project, "/traffic/summary?domain=acme.dev&pathPrefix=/docs/"))).containsExactly(4L, 3L, 1L, 3L, 2L, 1L);
        assertThat(totals(data(project, "/traffic/summary?domain=acme.dev&pathPrefix=/docs/api/auth"))).containsExactly(2L, 1L, 1L, 2L, 1L, 1L);
        assertThat(totals(data(project, "/traffic/summary?domain=acme.dev&pathPrefix=/doc"))).containsExactly(0L, 0L, 0L, 0L, 0L, 0L);
        assertThat(totals(data(project, "/traffic/summary?domain=acme.dev&pathPrefix=/"))).containsExactly(6L, 3L, 3L, 4L, 2L, 3L);
        assertThat(totals(data(project, "/traffic/summary?domain=acme.dev&pathPrefix=/docs&days=90"))).containsExactly(5L, 4L, 1L, 4L, 3L, 1L);
    }

    @Test
    void sensorStateIsProjectWideAndFollowsEachSourcesFreshnessWindow() {
        Map<String, Object> cloudflare = Map.of("source", "cloudflare", "state", "active",
                "lastAcceptedAt", h1.toString(), "freshnessWindowHours", 24,
                "observedHostnames", List.of(Map.of("hostname", "acme.dev", "lastAcceptedAt", h1.toString())),
                "configuredDomains", List.of("acme.dev"));
        Map<String, Object> fastly = new java.util.HashMap<>(Map.of("source", "fastly", "state", "awaiting_first_hit",
                "freshnessWindowHours", 48, "observedHostnames", List.of(), "configuredDomains", List.of()));
        fastly.put("lastAcceptedAt", null);
        Map<String, Object> vercel = Map.of("source", "vercel-middleware", "state", "stale",
                "lastAcceptedAt", h6.toString(), "freshnessWindowHours", 6,
                "observedHostnames", List.of(Map.of("hostname", "docs.acme.dev", "lastAcceptedAt", h6.toString())),
                "configuredDomains", List.of("docs.acme.dev"));
        for (String query : List.of("", "?domain=acme.dev", "?domain=other.dev&pathPrefix=/nothing", "?days=90")) {
            List<Map<String, Object>> sources = list(map(data(project, "/traffic/summary" + query).get("sensors")).get("sources"));
            assertThat(sources).as(query).hasSize(3);
            assertThat(normalized(sources.get(0))).as(query).isEqualTo(cloudflare);
            assertThat(normalized(sources.get(1))).as(query).isEqualTo(fastly);
            assertThat(normalized(sources.get(2))).as(query).isEqualTo(vercel);
        }
    }

    @Test
    void aHitDeliveredAgainIsCountedOnce() {
        TrafficHitObserved hit = bot(project, "cloudflare", "acme.dev", "/blog/post", 200, "GPTBot", "s9", ago(Duration.ofHours(2)));
        publishHitsAndAwait(project, List.of(hit), 1);
        // the same eventId again, then a marker on the same partition: once the marker counts, the repeat was seen
        TrafficHitObserved marker = bot(project, "cloudflare", "acme.dev", "/blog/other", 200, "GPTBot", "s9", ago(Duration.ofHours(2)));
        publishHitsAndAwait(project, List.of(hit, hit, marker), 1);
        assertThat(totals(data(project, "/traffic/summary?domain=acme.dev&pathPrefix=/blog"))).containsExactly(2L, 2L, 0L, 1L, 1L, 0L);
        // the claims are in traffic-service's own claim table (migration V4), not in the platform's processed_events
        assertThat(db.sql("SELECT count(*) FROM hit_claims WHERE event_id = :id").bind("id", hit.eventId())
                .map(row -> row.get(0, Long.class)).one().block()).isOne();
        assertThat(db.sql("SELECT count(*) FROM processed_events WHERE event_id = :id").bind("id", hit.eventId())
                .map(row -> row.get(0, Long.class)).one().block()).isZero();
    }

    @Test
    void badParametersAre400NamingTheParameter() {
        Map<String, String> bad = Map.of(
                "?days=7", "days", "?days=", "days", "?days=abc", "days",
                "?domain=", "domain", "?domain=not a host", "domain", "?domain=-bad-.dev", "domain",
                "?pathPrefix=/docs", "pathPrefix",
                "?domain=acme.dev&pathPrefix=docs", "pathPrefix",
                "?domain=acme.dev&pathPrefix=/docs?x=1", "pathPrefix",
                "?domain=acme.dev&pathPrefix=" + "/a".repeat(17), "pathPrefix");
        bad.forEach((query, parameter) -> {
            Map<String, Object> error = error(project, "/traffic/summary" + query, 400);
            assertThat(error).containsEntry("error", "invalid_request");
            assertThat((String) error.get("message")).as(query).contains("'" + parameter + "'");
        });
        assertThat(data(project, "/traffic/summary?domain=acme.dev&pathPrefix=" + "/a".repeat(16))).containsEntry("totalEvents", 0);
    }

    private static List<Long> totals(Map<String, Object> data) {
        return List.of("totalEvents", "botEvents", "referralEvents", "uniqueSessions", "botSessions", "referralSessions")
                .stream().map(k -> ((Number) data.get(k)).longValue()).toList();
    }

    /** Timestamps compared as instants (the JSON may print fewer zero digits). */
    private static Map<String, Object> normalized(Map<String, Object> source) {
        Map<String, Object> copy = new java.util.HashMap<>(source);
        if (copy.get("lastAcceptedAt") != null) {
            copy.put("lastAcceptedAt", Instant.parse((String) copy.get("lastAcceptedAt")).toString());
        }
        copy.put("observedHostnames", list(copy.get("observedHostnames")).stream()
                .map(h -> Map.of("hostname", h.get("hostname"), "lastAcceptedAt",
                        Instant.parse((String) h.get("lastAcceptedAt")).toString())).toList());
        return copy;
    }
}
