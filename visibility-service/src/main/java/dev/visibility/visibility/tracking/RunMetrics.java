package dev.visibility.visibility.tracking;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import dev.visibility.platform.events.TrackingRunCompleted;

import dev.visibility.platform.events.TrackingRunCompleted;

/**
 * The visibility metrics of one tracking run (spec 6.2 {@code metrics}).
 * <ul>
 * <li>{@code sampleCount}: the run's samples (one prompt on one platform each);</li>
 * <li>{@code citationCount}: citations of the project's own domains over all samples;</li>
 * <li>{@code brandMentionCount}: mentions of the project's own brand over all samples;</li>
 * <li>{@code visibilityScore}: the share of samples in which the brand is mentioned or an own
 * domain is cited, 0 to 100, rounded half-up to one decimal; 0 for a run without samples.</li>
 * </ul>
 */
public record RunMetrics(int sampleCount, int visibleSampleCount, int citationCount, int brandMentionCount,
        BigDecimal visibilityScore) {

    public static RunMetrics of(List<TrackingRunCompleted.Sample> samples) {
        int visible = 0;
        int citations = 0;
        int mentions = 0;
        for (TrackingRunCompleted.Sample sample : samples) {
            int ownCitations = ownCitations(sample);
            int ownMentions = ownMentions(sample);
            citations += ownCitations;
            mentions += ownMentions;
            if (ownCitations > 0 || ownMentions > 0) {
                visible++;
            }
        }
        return new RunMetrics(samples.size(), visible, citations, mentions, score(visible, samples.size()));
    }

    public static BigDecimal score(long visibleSamples, long samples) {
        if (samples == 0) {
            return BigDecimal.ZERO.setScale(1);
        }
        return BigDecimal.valueOf(visibleSamples * 100L).divide(BigDecimal.valueOf(samples), 1, RoundingMode.HALF_UP);
    }

    static int ownCitations(TrackingRunCompleted.Sample sample) {
        return sample.citations() == null ? 0 : (int) sample.citations().stream().filter(c -> c != null && c.own()).count();
    }

    static int ownMentions(TrackingRunCompleted.Sample sample) {
        return sample.brandMentions() == null ? 0
                : sample.brandMentions().stream().filter(m -> m != null && m.own()).mapToInt(m -> Math.max(0, m.count())).sum();
    }

    static boolean brandVisible(TrackingRunCompleted.Sample sample) {
        return ownCitations(sample) > 0 || ownMentions(sample) > 0;
    }
}
