package dev.visibility.visibility.tracking;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.UUID;

import dev.visibility.platform.events.TrackingRunCompleted;
import dev.visibility.visibility.support.Runs;
import org.junit.jupiter.api.Test;

/** visibilityScore as documented in the README: share of samples with the brand mentioned or cited, 0-100, one decimal. */
class RunMetricsTest {

    @Test
    void scoreIsTheShareOfVisibleSamplesRoundedHalfUpToOneDecimal() {
        assertThat(RunMetrics.score(1, 3)).isEqualByComparingTo("33.3");
        assertThat(RunMetrics.score(2, 3)).isEqualByComparingTo("66.7");
        assertThat(RunMetrics.score(1, 8)).isEqualByComparingTo("12.5");
        assertThat(RunMetrics.score(1, 16)).isEqualByComparingTo("6.3");
        assertThat(RunMetrics.score(5, 5)).isEqualByComparingTo("100.0");
    }

    @Test
    void runWithoutSamplesScoresZero() {
        assertThat(RunMetrics.score(0, 0)).isEqualByComparingTo(BigDecimal.ZERO);
        assertThat(RunMetrics.of(List.of()).sampleCount()).isZero();
    }

    @Test
    void countsOnlyTheProjectsOwnCitationsAndMentions() {
        TrackingRunCompleted run = Runs.completed(UUID.randomUUID(), "acct", LocalDate.of(2026, 11, 1), 5, 2);
        RunMetrics metrics = RunMetrics.of(run.samples());
        assertThat(metrics.sampleCount()).isEqualTo(5);
        assertThat(metrics.visibleSampleCount()).isEqualTo(2);
        assertThat(metrics.citationCount()).isEqualTo(4);
        assertThat(metrics.brandMentionCount()).isEqualTo(6);
        assertThat(metrics.visibilityScore()).isEqualByComparingTo("40.0");
    }
}
