package dev.visibility.traffic.demo;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import dev.visibility.platform.events.AdoptionMetricSampled;
import dev.visibility.platform.events.TrafficConfigured;
import dev.visibility.platform.events.TrafficHitObserved;

/**
 * The local demo of traffic-service, as the sensors, pollers and settings would publish it. The demo
 * project (acme.dev, primary, and docs.acme.dev) gets {@code days} days of AI-crawler and
 * AI-referral hits from three sources: cloudflare and vercel-middleware active, fastly-logs silent
 * for the last three days (stale); 404s that form content-intent clusters (missing docs pages,
 * an enterprise pricing page) and scanner noise (WordPress, .env, .php probes); daily adoption
 * samples for acme.dev (primary: GitHub stars, npm downloads) and acme-sdk.io (secondary: PyPI
 * downloads, GitHub stars). The other project (globex.io) gets a smaller site with one source. Ids
 * derive from the project and a name, so a second publication is applied once.
 */
public final class DemoData {

    static final List<String> BOTS = List.of("GPTBot", "OAI-SearchBot", "ClaudeBot", "PerplexityBot", "Google-Extended",
            "CCBot", "Bytespider", "Amazonbot");
    static final List<String> REFERRERS = List.of("https://chatgpt.com/", "https://www.perplexity.ai/", "https://claude.ai/",
            "https://gemini.google.com/", "https://copilot.microsoft.com/");
    static final List<String> SITE_PATHS = List.of("/", "/pricing", "/customers", "/customers/linear", "/blog",
            "/blog/usage-based-billing", "/blog/llms-txt", "/blog/ai-search-visibility", "/changelog", "/integrations/stripe",
            "/integrations/vercel", "/about");
    static final List<String> DOCS_PATHS = List.of("/docs", "/docs/quickstart", "/docs/api", "/docs/api/authentication",
            "/docs/api/webhooks", "/docs/api/errors", "/docs/api/pagination", "/docs/guides/subscriptions",
            "/docs/guides/invoices", "/docs/sdks/node", "/docs/sdks/python", "/docs/sdks/go");
    static final List<String> MISSING_CONTENT = List.of("/docs/api/webhooks/retries", "/docs/api/rate-limits",
            "/docs/api/webhooks/signing", "/docs/guides/llms-txt", "/pricing/enterprise", "/integrations/zapier");
    static final List<String> PROBES = List.of("/wp-admin/setup-config.php", "/wp-login.php", "/xmlrpc.php", "/.env",
            "/api/.env", "/phpinfo.php", "/.git/config");

    private final UUID projectId;
    private final Instant now;

    public DemoData(UUID projectId, Instant now) {
        this.projectId = projectId;
        this.now = now.truncatedTo(ChronoUnit.SECONDS);
    }

    public UUID id(String name) {
        return UUID.nameUUIDFromBytes((projectId + ":traffic:" + name).getBytes(StandardCharsets.UTF_8));
    }

    /** The configuration, dated so that a later one from the dashboard wins. */
    public TrafficConfigured configuration(boolean primary) {
        Instant at = Instant.parse("2026-01-01T00:00:00Z");
        if (!primary) {
            return new TrafficConfigured(id("config"), projectId, at,
                    List.of(new TrafficConfigured.Domain("globex.io", true)),
                    List.of(new TrafficConfigured.Source("cloudflare", "cdn", BigDecimal.valueOf(24), List.of("globex.io"))));
        }
        return new TrafficConfigured(id("config"), projectId, at,
                List.of(new TrafficConfigured.Domain("acme.dev", true), new TrafficConfigured.Domain("docs.acme.dev", false),
                        new TrafficConfigured.Domain("acme-sdk.io", false)),
                List.of(new TrafficConfigured.Source("cloudflare", "cdn", BigDecimal.valueOf(24), List.of("acme.dev", "docs.acme.dev")),
                        new TrafficConfigured.Source("vercel-middleware", "middleware", BigDecimal.valueOf(6), List.of("docs.acme.dev")),
                        new TrafficConfigured.Source("fastly-logs", "log_drain", BigDecimal.valueOf(12), List.of("acme.dev"))));
    }

    /** Hits of {@code days} days ending now, oldest first. */
    public List<TrafficHitObserved> hits(int days, boolean primary) {
        Random random = new Random(projectId.getMostSignificantBits() ^ 0x7472616666L);
        List<TrafficHitObserved> hits = new ArrayList<>();
        LocalDate today = now.atZone(ZoneOffset.UTC).toLocalDate();
        long secondsToday = Duration.between(today.atStartOfDay(ZoneOffset.UTC).toInstant(), now).toSeconds();
        int seq = 0;
        for (int back = days - 1; back >= 0; back--) {
            LocalDate day = today.minusDays(back);
            double progress = (days - back) / (double) days;
            // AI traffic grows over the months on the demo project; the other one stays small
            int count = primary ? (int) (180 + 420 * progress) : 40;
            // today: only what has happened so far
            long span = back == 0 ? Math.max(60, secondsToday - 60) : 86_400;
            if (back == 0) {
                count = (int) Math.max(5, count * span / 86_400);
            }
            for (int i = 0; i < count; i++) {
                Instant at = day.atStartOfDay(ZoneOffset.UTC).toInstant().plusSeconds((long) (random.nextDouble() * span));
                hits.add(primary ? primaryHit(random, at, back, seq++) : otherHit(random, at, seq++));
            }
        }
        hits.sort((a, b) -> a.observedAt().compareTo(b.observedAt()));
        return hits;
    }

    private TrafficHitObserved primaryHit(Random random, Instant at, int back, int seq) {
        boolean docs = random.nextDouble() < 0.55;
        String hostname = docs ? "docs.acme.dev" : "acme.dev";
        // vercel-middleware sits in front of the docs; fastly-logs drained the main site until three days ago
        String source = docs ? (random.nextBoolean() ? "vercel-middleware" : "cloudflare")
                : back >= 3 && random.nextDouble() < 0.4 ? "fastly-logs" : "cloudflare";
        boolean bot = random.nextDouble() < 0.7;
        int status = 200;
        String path = pick(random, docs ? DOCS_PATHS : SITE_PATHS);
        double r = random.nextDouble();
        if (back < 14 && r < 0.06) {
            status = 404;
            path = pick(random, MISSING_CONTENT);
            if (path.startsWith("/docs") != docs) {
                hostname = path.startsWith("/docs") ? "docs.acme.dev" : "acme.dev";
            }
        } else if (back < 14 && r < 0.1) {
            status = 404;
            bot = true;
            path = pick(random, PROBES);
        }
        String name = bot ? (status == 404 && PROBES.contains(path) ? pick(random, List.of("Bytespider", "CCBot"))
                : pick(random, BOTS)) : null;
        // crawlers keep a session for a few hours; referred visitors read two or three pages
        String session = bot ? name + "-" + at.truncatedTo(ChronoUnit.HOURS).getEpochSecond() / 21_600
                : "visitor-" + (seq / 3);
        return new TrafficHitObserved(id("hit:" + seq), projectId, source, hostname, path, status, name,
                bot ? null : pick(random, REFERRERS), session, at);
    }

    private TrafficHitObserved otherHit(Random random, Instant at, int seq) {
        boolean bot = random.nextDouble() < 0.8;
        String name = bot ? pick(random, BOTS) : null;
        String path = pick(random, List.of("/", "/products", "/products/widgets", "/about", "/contact"));
        String session = bot ? name + "-" + at.truncatedTo(ChronoUnit.DAYS).getEpochSecond() : "visitor-" + seq;
        return new TrafficHitObserved(id("hit:" + seq), projectId, "cloudflare", "globex.io", path, 200, name,
                bot ? null : pick(random, REFERRERS), session, at);
    }

    /** One sample per day and metric over {@code days} days, captured at 05:00 UTC. */
    public List<AdoptionMetricSampled> adoption(int days, boolean primary) {
        List<AdoptionMetricSampled> samples = new ArrayList<>();
        LocalDate today = now.atZone(ZoneOffset.UTC).toLocalDate();
        for (int back = days - 1; back >= 0; back--) {
            Instant at = today.minusDays(back).atTime(5, 0).toInstant(ZoneOffset.UTC);
            if (at.isAfter(now)) {
                continue;
            }
            int t = days - back;
            if (primary) {
                samples.add(sample("acme.dev", true, AdoptionMetricSampled.CODE_HOST_STARS, "github", 1_800 + 7L * t, at));
                samples.add(sample("acme.dev", true, AdoptionMetricSampled.WEEKLY_DOWNLOADS, "npm",
                        40_000 + 160L * t + (t % 7) * 300L, at));
                samples.add(sample("acme-sdk.io", false, AdoptionMetricSampled.CODE_HOST_STARS, "github", 240 + 2L * t, at));
                samples.add(sample("acme-sdk.io", false, AdoptionMetricSampled.WEEKLY_DOWNLOADS, "pypi",
                        6_000 + 45L * t, at));
            } else if (back % 7 == 0) {
                samples.add(sample("globex.io", true, AdoptionMetricSampled.WEEKLY_DOWNLOADS, "npm", 900 + 5L * t, at));
            }
        }
        return samples;
    }

    private AdoptionMetricSampled sample(String domain, boolean primary, String metric, String source, long value, Instant at) {
        return new AdoptionMetricSampled(id("adoption:" + domain + ":" + metric + ":" + at), projectId, domain, primary,
                metric, source, BigDecimal.valueOf(value), at);
    }

    private static String pick(Random random, List<String> values) {
        return values.get(random.nextInt(values.size()));
    }

    /** Ready-to-paste request paths with the demo project's id. */
    public Map<String, String> examples() {
        String base = "/api/v2/projects/" + projectId;
        Map<String, String> examples = new LinkedHashMap<>();
        examples.put("E4", base + "/traffic/summary");
        examples.put("E4_domain", base + "/traffic/summary?domain=acme.dev&days=90");
        examples.put("E4_domain_pathPrefix", base + "/traffic/summary?domain=docs.acme.dev&pathPrefix=/docs/api&days=30");
        examples.put("E5", base + "/adoption/metrics?days=30");
        examples.put("E5_weekly_downloads", base + "/adoption/metrics?days=90&metric=weekly_downloads");
        examples.put("E11", base + "/traffic/404-demand");
        return examples;
    }
}
