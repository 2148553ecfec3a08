package dev.visibility.outcomes.ingest;

import java.util.List;
import java.util.Set;

import dev.visibility.platform.events.OutcomeMeasured;
import dev.visibility.platform.events.OutcomeMeasured.Dimension;
import dev.visibility.platform.events.OutcomeMeasured.Rule;

/**
 * How a measurement becomes a result, a confidence and the what-works figures (README, "How each
 * figure is derived"). Pure functions of one record; applied once at ingestion.
 */
public final class Assessment {

    public static final String IMPROVED = "improved";
    public static final String MIXED = "mixed";
    public static final String NO_CLEAR_CHANGE = "no_clear_change";
    public static final String DECLINED = "declined";
    public static final String STILL_MEASURING = "still_measuring";
    public static final String UNMEASURED = "unmeasured";
    public static final List<String> RESULTS = List.of(IMPROVED, MIXED, NO_CLEAR_CHANGE, DECLINED, STILL_MEASURING, UNMEASURED);
    /** Results of a closed, measured canonical window (result filter {@code measured}). */
    public static final Set<String> MEASURED = Set.of(IMPROVED, MIXED, NO_CLEAR_CHANGE, DECLINED);
    /** Results that show a significant change in at least one dimension (result filter {@code conclusive}). */
    public static final Set<String> CONCLUSIVE = Set.of(IMPROVED, MIXED, DECLINED);

    public static final String CONFIDENCE_HIGH = "high";
    public static final String CONFIDENCE_MEDIUM = "medium";
    public static final String CONFIDENCE_LOW = "low";
    public static final String CONFIDENCE_INSUFFICIENT = "insufficient_data";

    private Assessment() {
    }

    /** The result of an intervention from its canonical (14-day) measurement; null: none received yet. */
    public static String result(OutcomeMeasured canonical) {
        if (canonical == null || canonical.inFlight()) {
            return STILL_MEASURING;
        }
        if (canonical.citations() == null && canonical.answerFetches() == null) {
            return UNMEASURED;
        }
        int up = 0;
        int down = 0;
        for (Dimension d : new Dimension[] {canonical.citations(), canonical.answerFetches()}) {
            int change = change(d, canonical.rule());
            up += change > 0 ? 1 : 0;
            down += change < 0 ? 1 : 0;
        }
        if (up > 0 && down > 0) {
            return MIXED;
        }
        return up > 0 ? IMPROVED : down > 0 ? DECLINED : NO_CLEAR_CHANGE;
    }

    /**
     * +1 a significant rise, -1 a significant fall, 0 otherwise: the direction must agree with the
     * counts, the p-value be at most the rule's significance, the larger count reach minCount, both
     * sides have at least minActiveDays active days, and |relative change| reach minRelativeChange.
     */
    public static int change(Dimension d, Rule rule) {
        if (d == null || !sufficient(d, rule) || d.pValue() > rule.significance()) {
            return 0;
        }
        double relative = relativeChange(d);
        if (Math.abs(relative) < rule.minRelativeChange()) {
            return 0;
        }
        if (d.direction() > 0 && d.after() > d.before()) {
            return 1;
        }
        if (d.direction() < 0 && d.after() < d.before()) {
            return -1;
        }
        return 0;
    }

    static boolean sufficient(Dimension d, Rule rule) {
        return Math.max(d.before(), d.after()) >= rule.minCount()
                && Math.min(d.beforeActiveDays(), d.afterActiveDays()) >= rule.minActiveDays();
    }

    /** (after - before) / max(before, 1). */
    public static double relativeChange(Dimension d) {
        return (d.after() - d.before()) / Math.max(d.before(), 1.0);
    }

    /**
     * {@code still_measuring} while the window is open, {@code unmeasured} without the dimension,
     * {@code insufficient_data} below the rule's minimums, else by p-value: {@code high} at most a
     * fifth of the significance, {@code medium} at most the significance, {@code low} above it.
     */
    public static String confidence(OutcomeMeasured m, Dimension d) {
        if (m == null || m.inFlight()) {
            return STILL_MEASURING;
        }
        if (d == null) {
            return UNMEASURED;
        }
        if (!sufficient(d, m.rule())) {
            return CONFIDENCE_INSUFFICIENT;
        }
        if (d.pValue() <= m.rule().significance() / 5) {
            return CONFIDENCE_HIGH;
        }
        return d.pValue() <= m.rule().significance() ? CONFIDENCE_MEDIUM : CONFIDENCE_LOW;
    }

    /**
     * What-works impact score, 0 to 100: the mean over the measured dimensions of
     * {@code max(direction, 0) × (1 − pValue) × min(|relative change|, 1)}, times 100.
     */
    public static double impactScore(OutcomeMeasured m) {
        double sum = 0;
        int n = 0;
        for (Dimension d : new Dimension[] {m.citations(), m.answerFetches()}) {
            if (d != null) {
                sum += Math.max(d.direction(), 0) * (1 - d.pValue()) * Math.min(Math.abs(relativeChange(d)), 1.0);
                n++;
            }
        }
        return n == 0 ? 0 : 100 * sum / n;
    }

    /**
     * What-works measured effect, mixed units: the mean over the measured dimensions of
     * {@code (1 − pValue) × (after − before)}, citations and answer fetches blended as counts.
     */
    public static double measuredEffect(OutcomeMeasured m) {
        double sum = 0;
        int n = 0;
        for (Dimension d : new Dimension[] {m.citations(), m.answerFetches()}) {
            if (d != null) {
                sum += (1 - d.pValue()) * (d.after() - d.before());
                n++;
            }
        }
        return n == 0 ? 0 : sum / n;
    }

    /** Change of the share of days with citations: (afterActiveDays − beforeActiveDays) / windowDays. */
    public static double presenceDelta(Dimension d, int windowDays) {
        return (d.afterActiveDays() - d.beforeActiveDays()) / (double) windowDays;
    }
}
