package dev.visibility.visibility.support;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import dev.visibility.platform.events.TrackingRunCompleted;
import dev.visibility.platform.events.TrackingRunCompleted.Ad;
import dev.visibility.platform.events.TrackingRunCompleted.BrandMention;
import dev.visibility.platform.events.TrackingRunCompleted.Citation;
import dev.visibility.platform.events.TrackingRunCompleted.Sample;

/**
 * Tracking runs for tests. In a run built here, each of the first {@code visible} samples names the
 * project's brand 3 times and cites 2 own URLs (plus a competitor), the others only name a
 * competitor: citationCount = 2 × visible, brandMentionCount = 3 × visible.
 */
public final class Runs {

    private Runs() {
    }

    public static TrackingRunCompleted completed(UUID projectId, String accountId, LocalDate capturedOn, int samples, int visible) {
        return run(projectId, accountId, capturedOn, TrackingRunCompleted.COMPLETED, samples, visible);
    }

    public static TrackingRunCompleted run(UUID projectId, String accountId, LocalDate capturedOn, String status,
            int samples, int visible) {
        Instant completedAt = capturedOn.atTime(6, 0).toInstant(ZoneOffset.UTC);
        List<Sample> list = new ArrayList<>();
        for (int i = 0; i < samples; i++) {
            list.add(sample(completedAt.minusSeconds(samples - i), "chatgpt", i < visible, List.of(), true,
                    "Answer " + i + " of " + capturedOn, null));
        }
        return new TrackingRunCompleted(UUID.randomUUID(), UUID.randomUUID(), projectId, accountId, status, capturedOn,
                completedAt.minusSeconds(600), completedAt, list);
    }

    public static Sample sample(Instant completedAt, String platform, boolean visible, List<Ad> ads, boolean adCaptureMeasured,
            String answer, Instant retainUntil) {
        List<Citation> citations = new ArrayList<>();
        List<BrandMention> mentions = new ArrayList<>();
        citations.add(new Citation("https://competitor.example/pricing", "competitor.example", false));
        mentions.add(new BrandMention("Competitor", false, 1));
        if (visible) {
            citations.add(new Citation("https://acme.example/docs", "acme.example", true));
            citations.add(new Citation("https://acme.example/blog", "acme.example", true));
            mentions.add(new BrandMention("Acme", true, 3));
        }
        return new Sample(UUID.randomUUID(), UUID.randomUUID(), "best tool for the job?", platform, answer, completedAt,
                retainUntil, citations, mentions, adCaptureMeasured, ads);
    }

    /** The same run under a new eventId (a producer that publishes a run twice). */
    public static TrackingRunCompleted republished(TrackingRunCompleted run) {
        return new TrackingRunCompleted(UUID.randomUUID(), run.runId(), run.projectId(), run.accountId(), run.finalStatus(),
                run.capturedOn(), run.startedAt(), run.completedAt(), run.samples());
    }
}
