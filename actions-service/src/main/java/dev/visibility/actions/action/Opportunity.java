package dev.visibility.actions.action;

import java.time.LocalDate;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The opportunity contract of an action (spec 2.4). {@code percentile} and
 * {@code percentilePoolSize} are maintained by this service per signal family; both are absent
 * on records that carry none (unranked candidates, older records) and are never inferred.
 */
public record Opportunity(
        String family,
        boolean estimated,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double percentile,
        Components components,
        List<String> measuredFacts,
        String percentileStatus,
        @JsonInclude(JsonInclude.Include.NON_NULL) Integer percentilePoolSize,
        String percentileScope,
        @JsonInclude(JsonInclude.Include.NON_NULL) Measurements measurements) {

    public static final String RANKED = "ranked";
    public static final String INSUFFICIENT_REACH = "insufficient_reach";
    public static final String SIGNAL_FAMILY = "signal_family";

    public record Components(Reach reach, Gap gap, Confidence confidence) {
    }

    /** Searches per month (unit {@code searches_per_month}). */
    public record Reach(double value, String unit, boolean estimated) {
    }

    /** Share of citations missing (unit {@code citation_share}); {@code normalization} describes the formula. */
    public record Gap(double value, String unit, String normalization) {
    }

    /** Ratio 0..1 (unit {@code ratio}), discounted for low volume and saturating on the evidence counts. */
    public record Confidence(double value, String unit, double volumeConfidencePenalty, Saturation saturation) {
    }

    public record Saturation(int signalDays, int eventEvidence, int runPlatformObservations) {
    }

    public record Measurements(LocalDate asOfDate, CompositionChange compositionChange, int currentCitationCount,
            int currentExecutions, int currentProbeDays, double matchedCohortCoverage, int priorCitationCount,
            int priorExecutions, int priorProbeDays) {
    }

    public record CompositionChange(CellCounts onlyPrior, CellCounts onlyCurrent) {
    }

    public record CellCounts(int cellCount, int citationCount) {
    }

    /** The internal score (reach × gap × confidence) pools are ranked on; never exposed. */
    public double score() {
        if (components == null || components.reach() == null || components.gap() == null || components.confidence() == null) {
            return 0;
        }
        return components.reach().value() * components.gap().value() * components.confidence().value();
    }

    public Opportunity withRanking(String status, Double percentile, Integer poolSize) {
        return new Opportunity(family, estimated, percentile, components, measuredFacts, status, poolSize,
                percentileScope, measurements);
    }

    public Opportunity withoutMeasurements() {
        return new Opportunity(family, estimated, percentile, components, measuredFacts, percentileStatus,
                percentilePoolSize, percentileScope, null);
    }
}
