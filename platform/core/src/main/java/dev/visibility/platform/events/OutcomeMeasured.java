package dev.visibility.platform.events;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import dev.visibility.platform.consumer.ConsumedRecord;
import dev.visibility.platform.consumer.PoisonRecord;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;

/**
 * A record of {@code outcomes.measurements} (key projectId; schema
 * {@code docs/events/outcomes.measurements.schema.json}): one measured window of one intervention,
 * published by the measurement jobs. An intervention is a shipped action whose effect is measured
 * in windows of 7, 14, 30 and 90 days after {@code intervenedAt}, each against the same number of
 * days before it. The jobs publish a window while it is open ({@code inFlight}) and again once it
 * has closed; outcomes-service keeps, per intervention and window, the record with the latest
 * {@code measuredAt} (a newer measurement of the same window replaces the older one, an older one
 * arriving late changes nothing) and de-duplicates by {@code eventId}.
 *
 * @param channel       the channel the action worked on (content, technical, pr, social, docs…); what-works groups by it
 * @param actionType    the kind of change (for example the recommendation family); optional
 * @param windowDays    7, 14, 30 or 90
 * @param inFlight      the window had not closed when it was measured ({@code measuredAt} before
 *                      {@code intervenedAt + windowDays}); its counts are partial
 * @param blind         the project's tracking had no probe coverage of the intervention's prompts
 * @param unmatchedUrl  the intervention's target URL matched no tracked or crawled URL
 * @param sensorGap     the traffic sensor reported gaps inside the window
 * @param citations     citations in AI answers before and after; null when they could not be measured
 * @param answerFetches AI crawler fetches of the target before and after; null when they could not be measured
 * @param rule          the significance rule the job applied
 * @param analyticsComparison sessions and conversions from the connected analytics; null without a connection
 */
public record OutcomeMeasured(
        @NotNull UUID eventId,
        @NotNull UUID projectId,
        @NotNull UUID interventionId,
        @NotNull UUID actionId,
        @NotBlank @Size(max = 50) @Pattern(regexp = SLUG, message = "must be lowercase letters, digits, _ or -") String channel,
        @Size(max = 50) @Pattern(regexp = SLUG, message = "must be lowercase letters, digits, _ or -") String actionType,
        @NotNull Instant intervenedAt,
        @NotNull Integer windowDays,
        @NotNull Instant measuredAt,
        boolean inFlight,
        boolean blind,
        boolean unmatchedUrl,
        boolean sensorGap,
        @Valid Dimension citations,
        @Valid Dimension answerFetches,
        @NotNull @Valid Rule rule,
        @Valid AnalyticsComparison analyticsComparison) implements ConsumedRecord {

    public static final String SLUG = "[a-z0-9][a-z0-9_-]*";
    public static final List<Integer> WINDOWS = List.of(7, 14, 30, 90);
    /** The window whose result is the intervention's result (what-works: closed 14-day improvements). */
    public static final int CANONICAL_WINDOW = 14;

    /**
     * One measured dimension: counts in the {@code windowDays} before and after the intervention.
     *
     * @param beforeActiveDays  days with at least one count before (at most windowDays)
     * @param beforeProbeAnswers probe answers (tracked AI answers) observed before
     * @param direction         the job's direction of change: -1, 0 or 1
     * @param pValue            the job's p-value of the change, 0 to 1
     */
    public record Dimension(
            @NotNull @PositiveOrZero Double before,
            @NotNull @PositiveOrZero Double after,
            @NotNull @PositiveOrZero Integer beforeActiveDays,
            @NotNull @PositiveOrZero Integer afterActiveDays,
            @NotNull @PositiveOrZero Double beforeProbeAnswers,
            @NotNull @PositiveOrZero Double afterProbeAnswers,
            @NotNull @Min(-1) @Max(1) Integer direction,
            @NotNull @DecimalMin("0") @DecimalMax("1") Double pValue) {
    }

    /** The rule a change must pass to count: p-value at most {@code significance}, and the minimums. */
    public record Rule(
            @NotNull @DecimalMin(value = "0", inclusive = false) @DecimalMax("1") Double significance,
            @NotNull @PositiveOrZero Double minCount,
            @NotNull @PositiveOrZero Double minActiveDays,
            @NotNull @PositiveOrZero Double minRelativeChange) {
    }

    /** Sessions and conversions of one side of the comparison; null where the analytics do not cover it. */
    public record Traffic(@PositiveOrZero Long sessions, @PositiveOrZero Long conversions) {
    }

    /** The comparison as first recorded (before a restatement of the analytics generation). */
    public record Recorded(@Valid Traffic before, @Valid Traffic after) {
    }

    public record AnalyticsComparison(
            @NotBlank @Size(max = 50) String provider,
            @NotBlank @Size(max = 200) String connectionId,
            @NotNull @PositiveOrZero Long generation,
            @NotBlank @Size(max = 200) String definitionHash,
            boolean sessionsCovered,
            boolean conversionsCovered,
            @NotNull @Valid Traffic before,
            @NotNull @Valid Traffic after,
            @Valid Recorded recorded) {
    }

    /** When the window closes: {@code intervenedAt + windowDays}. */
    public Instant windowEnd() {
        return intervenedAt.plus(Duration.ofDays(windowDays));
    }

    @Override
    public void validate() {
        if (!WINDOWS.contains(windowDays)) {
            throw new PoisonRecord("windowDays must be one of " + WINDOWS);
        }
        if (measuredAt.isBefore(intervenedAt)) {
            throw new PoisonRecord("measuredAt is before intervenedAt");
        }
        if (!inFlight && measuredAt.isBefore(windowEnd())) {
            throw new PoisonRecord("a window measured before it closed must be inFlight");
        }
        for (Dimension d : new Dimension[] {citations, answerFetches}) {
            if (d != null && (d.beforeActiveDays() > windowDays || d.afterActiveDays() > windowDays)) {
                throw new PoisonRecord("active days exceed windowDays");
            }
        }
        if (analyticsComparison != null && analyticsComparison.conversionsCovered()
                && (analyticsComparison.before().conversions() == null || analyticsComparison.after().conversions() == null)) {
            throw new PoisonRecord("conversionsCovered needs before and after conversions");
        }
        if (analyticsComparison != null && analyticsComparison.sessionsCovered()
                && (analyticsComparison.before().sessions() == null || analyticsComparison.after().sessions() == null)) {
            throw new PoisonRecord("sessionsCovered needs before and after sessions");
        }
    }
}
