package dev.visibility.platform.events;

import java.time.LocalDate;

/**
 * {@code data} of {@code visibility.changed} (spec 6.2); {@code previousMetrics} is null on a
 * project's first run and is then written as an explicit {@code null}.
 */
public record VisibilityChanged(String runId, LocalDate capturedOn, Metrics metrics, PreviousMetrics previousMetrics) {

    public record Metrics(double visibilityScore, long citationCount, long brandMentionCount, long sampleCount) {
    }

    public record PreviousMetrics(double visibilityScore, long citationCount, long brandMentionCount, long sampleCount,
            LocalDate capturedOn) {
    }
}
