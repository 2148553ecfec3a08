package dev.visibility.visibility.summary;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;

/**
 * {@code data} of {@code GET …/visibility/summary} (spec E17: shape not shown; documented in the
 * README). Metrics are defined as in {@code visibility.changed} (spec 6.2).
 *
 * @param latest      the project's latest completed run in capture order, or null before any
 * @param previous    the completed run just before it, or null
 * @param change      latest minus previous for each metric, or null without both
 * @param trend       one point per capture day of the window that has completed runs, oldest first
 * @param advertising ad rates over the answers completed in the window
 */
public record VisibilitySummary(RunPoint latest, RunPoint previous, Change change, List<DayPoint> trend,
        Advertising advertising, Window window) {

    public record RunPoint(String runId, LocalDate capturedOn, BigDecimal visibilityScore, long citationCount,
            long brandMentionCount, long sampleCount) {
    }

    public record Change(BigDecimal visibilityScore, long citationCount, long brandMentionCount, long sampleCount) {
    }

    /** The completed runs of one capture day together; the score is over all their samples. */
    public record DayPoint(LocalDate capturedOn, long runCount, BigDecimal visibilityScore, long citationCount,
            long brandMentionCount, long sampleCount) {
    }

    /**
     * @param measuredSampleCount answers on which ads were looked for ({@code adCaptureMeasured})
     * @param samplesWithAdsCount measured answers with at least one ad
     * @param adRate              100 × samplesWithAdsCount / measuredSampleCount, one decimal; null when nothing was measured
     * @param adCount             ads captured on measured answers
     */
    public record Advertising(long measuredSampleCount, long samplesWithAdsCount, BigDecimal adRate, long adCount,
            List<PlatformAds> platforms, List<Advertiser> topAdvertisers) {
    }

    public record PlatformAds(String platform, long measuredSampleCount, long samplesWithAdsCount, BigDecimal adRate,
            long adCount) {
    }

    public record Advertiser(String domain, long adCount) {
    }

    public record Window(int days, LocalDate dateFrom, LocalDate dateTo) {
    }
}
