package dev.visibility.traffic.hits;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;

import dev.visibility.platform.events.TrafficHitObserved;
import dev.visibility.traffic.support.TrafficTest;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Every rollup row of a project after random hits in several deliveries, against a model written
 * plainly here: a hit counts in the project, its hostname (lower case) and each path prefix
 * (spec 2.6's domain and pathPrefix filters read these rows); a session scope's last day (and last
 * bot and referral day) is the latest of its hits', and a day's row counts the session scopes whose
 * last day it is (E4 sums them over its window). Later deliveries carry older and newer days than
 * earlier ones, so stored sessions move between days; hostnames come in two spellings; paths carry
 * queries, fragments, empty segments and trailing slashes. Sessions recur across deliveries, so later
 * batches skip the session scopes the session cache vouches for: the model checks those batches too.
 */
class HitRollupModelTest extends TrafficTest {

    /** A path of the hits and the prefixes it counts in (written out, not computed by {@link Scopes}). */
    private static final Map<String, List<String>> PATHS = Map.of(
            "/", List.of("/"),
            "/docs", List.of("/", "/docs"),
            "/docs/api", List.of("/", "/docs", "/docs/api"),
            "/docs/api/auth/?utm=x", List.of("/", "/docs", "/docs/api", "/docs/api/auth"),
            "/docs//api#top", List.of("/", "/docs", "/docs/api"),
            "/blog/post", List.of("/", "/blog", "/blog/post"),
            "/Blog/post", List.of("/", "/Blog", "/Blog/post"),
            "/straße/日本語", List.of("/", "/straße", "/straße/日本語"));
    private static final List<String> HOSTNAMES = List.of("acme.dev", "ACME.dev", "docs.acme.dev", "Blog.Acme.Dev");

    private record Row(String hostname, String prefix, LocalDate day) {
    }

    private record ScopeSession(String hostname, String prefix, String session) {
    }

    /** The model: event counts per row, and each session scope's last day, last bot day and last referral day. */
    private final Map<Row, long[]> events = new HashMap<>();
    private final Map<ScopeSession, LocalDate[]> last = new HashMap<>();

    @Autowired
    MeterRegistry meters;

    @Test
    void everyRollupRowIsTheModelsAfterEachDelivery() {
        double cachedBefore = cachedSessionScopes();
        UUID project = UUID.randomUUID();
        Random random = new Random(20261128);
        List<String> paths = new ArrayList<>(PATHS.keySet());
        paths.sort(null);
        for (int delivery = 0; delivery < 4; delivery++) {
            List<TrafficHitObserved> hits = new ArrayList<>();
            for (int i = 0; i < 150; i++) {
                String hostname = HOSTNAMES.get(random.nextInt(HOSTNAMES.size()));
                String path = paths.get(random.nextInt(paths.size()));
                String session = "s" + random.nextInt(12);
                // days 0 to 6 ago; each delivery has older and newer days than the one before
                Instant at = ago(Duration.ofDays(random.nextInt(7)).plusMinutes(random.nextInt(600)));
                int status = random.nextInt(10) == 0 ? 404 : 200;
                TrafficHitObserved hit = random.nextBoolean()
                        ? bot(project, "cloudflare", hostname, path, status, "GPTBot", session, at)
                        : referral(project, "cloudflare", hostname, path, status, "chatgpt.com", session, at);
                hits.add(hit);
                model(hit);
            }
            publishHitsAndAwait(project, hits, hits.size());
            assertThat(stored(project)).as("delivery %d", delivery).isEqualTo(expected());
        }
        // the later deliveries' session scopes that earlier ones stored were partly vouched for by the
        // session cache (SessionCache), so the model checked the batches that skip them too
        assertThat(cachedSessionScopes()).isGreaterThan(cachedBefore);
    }

    private double cachedSessionScopes() {
        return meters.get("traffic.session.scopes").tag("lookup", "cached").counter().count();
    }

    private void model(TrafficHitObserved hit) {
        LocalDate day = LocalDate.ofInstant(hit.observedAt(), ZoneOffset.UTC);
        String hostname = hit.hostname().toLowerCase(java.util.Locale.ROOT);
        count(new Row("", "/", day), hit);
        session(new ScopeSession("", "/", hit.sessionId()), day, hit);
        for (String prefix : PATHS.get(hit.path())) {
            count(new Row(hostname, prefix, day), hit);
            session(new ScopeSession(hostname, prefix, hit.sessionId()), day, hit);
        }
    }

    private void count(Row row, TrafficHitObserved hit) {
        long[] c = events.computeIfAbsent(row, r -> new long[3]);
        c[0]++;
        c[1] += hit.isBot() ? 1 : 0;
        c[2] += hit.isReferral() ? 1 : 0;
    }

    private void session(ScopeSession scope, LocalDate day, TrafficHitObserved hit) {
        LocalDate[] days = last.computeIfAbsent(scope, s -> new LocalDate[3]);
        days[0] = later(days[0], day);
        days[1] = hit.isBot() ? later(days[1], day) : days[1];
        days[2] = hit.isReferral() ? later(days[2], day) : days[2];
    }

    private static LocalDate later(LocalDate a, LocalDate b) {
        return a == null || b.isAfter(a) ? b : a;
    }

    /** Each row's total, bot and referral events, then its sessions, bot sessions and referral sessions. */
    private Map<String, List<Long>> expected() {
        Map<Row, long[]> rows = new HashMap<>();
        events.forEach((row, c) -> System.arraycopy(c, 0, rows.computeIfAbsent(row, r -> new long[6]), 0, 3));
        last.forEach((scope, days) -> {
            for (int c = 0; c < 3; c++) {
                if (days[c] != null) {
                    rows.computeIfAbsent(new Row(scope.hostname(), scope.prefix(), days[c]), r -> new long[6])[3 + c]++;
                }
            }
        });
        Map<String, List<Long>> expected = new TreeMap<>();
        rows.forEach((row, c) -> expected.put(row.hostname() + " " + row.prefix() + " " + row.day(),
                List.of(c[0], c[1], c[2], c[3], c[4], c[5])));
        return expected;
    }

    private Map<String, List<Long>> stored(UUID project) {
        Map<String, List<Long>> stored = new TreeMap<>();
        db.sql("""
                SELECT hostname, prefix, day, total_events, bot_events, referral_events, sessions, bot_sessions, referral_sessions
                FROM traffic_days WHERE project_id = :project""")
                .bind("project", project)
                .map(row -> Map.entry(row.get("hostname", String.class) + " " + row.get("prefix", String.class) + " "
                        + row.get("day", LocalDate.class),
                        List.of(row.get("total_events", Long.class), row.get("bot_events", Long.class),
                                row.get("referral_events", Long.class), row.get("sessions", Long.class),
                                row.get("bot_sessions", Long.class), row.get("referral_sessions", Long.class))))
                .all()
                .doOnNext(e -> stored.put(e.getKey(), e.getValue()))
                .blockLast();
        return stored;
    }
}
