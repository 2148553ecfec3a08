package dev.visibility.outcomes.demo;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import dev.visibility.platform.events.OutcomeMeasured;
import dev.visibility.platform.events.OutcomeMeasured.AnalyticsComparison;
import dev.visibility.platform.events.OutcomeMeasured.Dimension;
import dev.visibility.platform.events.OutcomeMeasured.Rule;
import dev.visibility.platform.events.OutcomeMeasured.Traffic;

/**
 * The local demo's measured windows, as the measurement jobs would publish them: {@code count}
 * interventions spread over the last year (a few shipped in the last two weeks), each with its 7-,
 * 14-, 30- and 90-day windows, closed ones measured after they closed and open ones measured an
 * hour ago ({@code inFlight}). The 14-day results cycle through all six values; improvements fall
 * on every channel, so what-works has recommendations in both of its windows. Intervention ids
 * derive from the project id, so the demo is the same on every machine.
 */
public final class DemoMeasurements {

    static final String[] CHANNELS = {"content", "technical", "pr", "social", "docs"};
    static final String[] TYPES = {"prompt_gap", "citation_defence", "content_freshness", "technical_health"};
    static final Rule RULE = new Rule(0.05, 5.0, 3.0, 0.1);

    private final UUID projectId;
    private final Instant now;

    public DemoMeasurements(UUID projectId, Instant now) {
        this.projectId = projectId;
        this.now = now.truncatedTo(ChronoUnit.SECONDS);
    }

    public UUID interventionId(int i) {
        return UUID.nameUUIDFromBytes((projectId + ":intervention:" + i).getBytes(StandardCharsets.UTF_8));
    }

    /** Every record, oldest intervention first; {@code actions} are the ids the interventions ship (reused in turn). */
    public List<OutcomeMeasured> records(int count, List<UUID> actions) {
        Random random = new Random(projectId.getLeastSignificantBits());
        List<OutcomeMeasured> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            // the last 16 land in the last 60 days, 2 of them in the last 10 (still measuring); the rest over the year
            int recent = Math.min(16, count);
            double daysAgo = i >= count - recent
                    ? 60.0 * (count - i) / recent
                    : 60 + 305.0 * (count - recent - i) / Math.max(1, count - recent);
            Instant at = now.minus(Duration.ofMinutes((long) (daysAgo * 24 * 60) + 90 + random.nextInt(600)));
            UUID action = actions.isEmpty() ? UUID.nameUUIDFromBytes((projectId + ":action:" + i).getBytes(StandardCharsets.UTF_8))
                    : actions.get(i % actions.size());
            String channel = CHANNELS[i % CHANNELS.length];
            String type = TYPES[(i / CHANNELS.length) % TYPES.length];
            int kind = i % 10;
            for (int window : OutcomeMeasured.WINDOWS) {
                Instant end = at.plus(Duration.ofDays(window));
                boolean open = !end.plus(Duration.ofHours(2)).isBefore(now);
                Instant measured = open ? now.minus(Duration.ofHours(1)) : end.plus(Duration.ofHours(2));
                if (measured.isBefore(at)) {
                    measured = at;
                }
                double scale = (open ? Duration.between(at, measured).toHours() / 24.0 / window : 1.0) * window / 14.0;
                Dimension citations = kind == 7 ? null : dimension(kind, true, window, scale, random);
                Dimension fetches = kind == 7 || kind % 2 == 1 ? null : dimension(kind, false, window, scale, random);
                AnalyticsComparison analytics = i % 3 == 0 && kind != 7 ? analytics(window, random) : null;
                out.add(new OutcomeMeasured(UUID.nameUUIDFromBytes((projectId + ":m:" + i + ":" + window + ":" + measured)
                        .getBytes(StandardCharsets.UTF_8)), projectId, interventionId(i), action, channel, type, at, window,
                        measured, open, kind == 7, i % 13 == 0, i % 11 == 0, citations, fetches, RULE, analytics));
            }
        }
        return out;
    }

    /**
     * kind 0–3 and 8: a significant rise; 4: citations rise while answer fetches fall (mixed); 5 and 9:
     * no significant change; 6: a significant fall.
     */
    private static Dimension dimension(int kind, boolean citations, int window, double scale, Random random) {
        double before = Math.max(6, Math.round((citations ? 12 : 40) * scale + random.nextInt(8)));
        boolean rise = kind <= 3 || kind == 8 || kind == 4 && citations;
        boolean fall = kind == 6 || kind == 4 && !citations;
        double after = rise ? Math.round(before * (1.3 + random.nextDouble()))
                : fall ? Math.round(before * (0.4 + random.nextDouble() * 0.3))
                : Math.round(before * (0.95 + random.nextDouble() * 0.1));
        int activeBefore = Math.min(window, 3 + random.nextInt(Math.max(1, window - 3)));
        int activeAfter = Math.min(window, rise ? Math.min(window, activeBefore + 1 + random.nextInt(3))
                : Math.max(3, activeBefore - random.nextInt(2)));
        double probes = 20.0 * window;
        int direction = rise ? 1 : fall ? -1 : 0;
        double p = rise || fall ? 0.001 + random.nextDouble() * 0.03 : 0.2 + random.nextDouble() * 0.7;
        return new Dimension(before, after, activeBefore, activeAfter, probes, probes, direction,
                Math.round(p * 10_000) / 10_000.0);
    }

    private static AnalyticsComparison analytics(int window, Random random) {
        long sessionsBefore = 200L * window + random.nextInt(500);
        long conversionsBefore = 3L * window + random.nextInt(20);
        Traffic before = new Traffic(sessionsBefore, conversionsBefore);
        Traffic after = new Traffic(sessionsBefore + random.nextInt(400) - 100, conversionsBefore + random.nextInt(30) - 5);
        return new AnalyticsComparison("ga4", "demo-ga4-connection", 2L, "sha256:demo-conversions-v2", true, true, before, after,
                null);
    }
}
