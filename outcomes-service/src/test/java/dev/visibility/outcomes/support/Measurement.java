package dev.visibility.outcomes.support;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

import dev.visibility.platform.events.OutcomeMeasured;
import dev.visibility.platform.events.OutcomeMeasured.AnalyticsComparison;
import dev.visibility.platform.events.OutcomeMeasured.Dimension;
import dev.visibility.platform.events.OutcomeMeasured.Rule;
import dev.visibility.platform.events.OutcomeMeasured.Traffic;

/** Builds outcomes.measurements records: a closed 14-day window of improving citations unless told otherwise. */
public final class Measurement {

    public static final Rule RULE = new Rule(0.05, 5.0, 3.0, 0.1);

    private UUID project;
    private UUID intervention = UUID.randomUUID();
    private UUID action = UUID.randomUUID();
    private String channel = "content";
    private String actionType = "content_freshness";
    private Instant intervenedAt = Instant.now().minus(Duration.ofDays(20)).truncatedTo(ChronoUnit.MILLIS);
    private int windowDays = 14;
    private Instant measuredAt;
    private boolean inFlight;
    private boolean blind;
    private boolean unmatchedUrl;
    private boolean sensorGap;
    private Dimension citations = up();
    private Dimension answerFetches;
    private AnalyticsComparison analytics;
    private UUID eventId = UUID.randomUUID();

    private Measurement(UUID project) {
        this.project = project;
    }

    public static Measurement of(UUID project) {
        return new Measurement(project);
    }

    /** Citations 10 → 20 over 8 → 12 active days, p 0.01, direction 1: significant rise. */
    public static Dimension up() {
        return new Dimension(10.0, 20.0, 8, 12, 100.0, 100.0, 1, 0.01);
    }

    /** 20 → 8, p 0.01, direction -1: significant fall. */
    public static Dimension down() {
        return new Dimension(20.0, 8.0, 10, 6, 100.0, 100.0, -1, 0.01);
    }

    /** 10 → 11, p 0.6: no significant change. */
    public static Dimension flat() {
        return new Dimension(10.0, 11.0, 9, 9, 100.0, 100.0, 0, 0.6);
    }

    public Measurement intervention(UUID id) { this.intervention = id; return this; }
    public Measurement action(UUID id) { this.action = id; return this; }
    public Measurement channel(String value) { this.channel = value; return this; }
    public Measurement actionType(String value) { this.actionType = value; return this; }
    public Measurement intervenedAt(Instant value) { this.intervenedAt = value.truncatedTo(ChronoUnit.MILLIS); return this; }
    public Measurement daysAgo(int days) { return intervenedAt(Instant.now().minus(Duration.ofDays(days))); }
    public Measurement window(int days) { this.windowDays = days; return this; }
    public Measurement measuredAt(Instant value) { this.measuredAt = value; return this; }
    public Measurement inFlight() { this.inFlight = true; return this; }
    public Measurement blind() { this.blind = true; return this; }
    public Measurement unmatchedUrl() { this.unmatchedUrl = true; return this; }
    public Measurement sensorGap() { this.sensorGap = true; return this; }
    public Measurement citations(Dimension d) { this.citations = d; return this; }
    public Measurement answerFetches(Dimension d) { this.answerFetches = d; return this; }
    public Measurement eventId(UUID id) { this.eventId = id; return this; }

    public Measurement conversions(long before, long after) {
        this.analytics = new AnalyticsComparison("ga4", "conn-1", 3L, "def-abc", true, true, new Traffic(1000L, before),
                new Traffic(1200L, after), null);
        return this;
    }

    public OutcomeMeasured build() {
        Instant measured = measuredAt != null ? measuredAt
                : inFlight ? intervenedAt.plus(Duration.ofDays(windowDays / 2))
                : intervenedAt.plus(Duration.ofDays(windowDays)).plus(Duration.ofHours(1));
        return new OutcomeMeasured(eventId, project, intervention, action, channel, actionType, intervenedAt, windowDays,
                measured, inFlight, blind, unmatchedUrl, sensorGap, citations, answerFetches, RULE, analytics);
    }
}
