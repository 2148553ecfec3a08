package dev.visibility.outcomes.ledger;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * {@code data} of E2 (spec 2.3). {@code impactWindows} is present only when asked for
 * ({@code impactWindows=true}); every other member is always present, null where the spec allows
 * a value to be missing (an unmeasured window, a dimension that was not measured).
 */
public record Ledger(List<AttributedConversions> attributedConversions, List<Item> items, Pagination pagination,
        Scoreboard scoreboard, Window window,
        @JsonInclude(JsonInclude.Include.NON_NULL) List<ImpactWindow> impactWindows) {

    /** {@code conversions} is null (never 0) while {@code state} is not {@code measured}. */
    public record AttributedConversions(String attributionLabel, Long conversions, LocalDate dateFrom, LocalDate dateTo,
            String state, int windowDays) {
    }

    public record Item(UUID interventionId, UUID actionId, String actionTitle, String result, Instant resultAvailableAt,
            Instant measuredAt, String citationConfidence, String answerFetchConfidence, Number citationsBefore,
            Number citationsAfter, Number citationDelta, Number answerFetchesBefore, Number answerFetchesAfter,
            Number answerFetchDelta, AnalyticsComparison analyticsComparison, Evidence evidence) {
    }

    public record AnalyticsComparison(String provider, String connectionId, Number generation, String definitionHash,
            boolean sessionsCovered, boolean conversionsCovered, Traffic before, Traffic after, Recorded recorded) {
    }

    public record Traffic(Long sessions, Long conversions) {
    }

    public record Recorded(Traffic before, Traffic after) {
    }

    public record Evidence(Dimension citations, Dimension answerFetches, Rule rule) {
    }

    public record Dimension(Number before, Number after, Number beforeActiveDays, Number afterActiveDays,
            Number beforeProbeAnswers, Number afterProbeAnswers, int direction, double pValue) {
    }

    public record Rule(Number significance, Number minCount, Number minActiveDays, Number minRelativeChange) {
    }

    public record Pagination(boolean hasMore, String nextCursor, int pageSize, long totalCount) {
    }

    public record Scoreboard(long conclusiveCount, long improvedCount, long mixedCount, long noClearChangeCount,
            long declinedCount, long stillMeasuringCount, long unmeasuredCount, double improvementRate,
            double combinedCitationLift) {
    }

    public record Window(int days, LocalDate dateFrom, LocalDate dateTo) {
    }

    /** Deltas are null while the window length has no measured window (evidence quality still_measuring or unmeasured). */
    public record ImpactWindow(int windowDays, String evidenceQuality, Double citationDelta, Double presenceDelta,
            String answerFetchEvidenceQuality, Double answerFetchDelta) {
    }
}
