package dev.visibility.webhook.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** Spec 6.4.3: exponential back-off; ours: ±jitter, a bounded Retry-After lengthens a delay, never shortens it. */
class RetryScheduleTest {

    private static RetrySchedule schedule(double random) {
        return new RetrySchedule(Duration.ofSeconds(10), Duration.ofMinutes(2), 0.2, () -> random);
    }

    @Test
    void delaysDoubleAroundTheirNominalValue() {
        assertThat(schedule(0.5).delayAfter(1, null)).isEqualTo(Duration.ofSeconds(10));
        assertThat(schedule(0.5).delayAfter(2, null)).isEqualTo(Duration.ofSeconds(20));
        assertThat(schedule(0.5).delayAfter(3, null)).isEqualTo(Duration.ofSeconds(40));
        assertThat(schedule(0.0).delayAfter(1, null)).isEqualTo(Duration.ofSeconds(8));
        assertThat(schedule(1.0).delayAfter(1, null)).isEqualTo(Duration.ofSeconds(12));
        // even the longest first delay is shorter than the shortest second one
        assertThat(schedule(1.0).delayAfter(1, null)).isLessThan(schedule(0.0).delayAfter(2, null));
    }

    @Test
    void theShortestDelayIsTheFirstLessItsJitter() {
        // what the retry consumers' fetch wait is bounded by (DeliveryKafkaConfiguration.retryFetchMaxWait)
        assertThat(schedule(0.5).shortestDelay()).isEqualTo(Duration.ofSeconds(8)).isEqualTo(schedule(0.0).delayAfter(1, null));
        assertThat(new RetrySchedule(Duration.ofSeconds(1), Duration.ofSeconds(4), 0.2, () -> 0.0).shortestDelay())
                .isEqualTo(Duration.ofMillis(800));
        // a maximum below the base: the first delay is drawn around the maximum
        RetrySchedule capped = new RetrySchedule(Duration.ofSeconds(10), Duration.ofSeconds(5), 0.2, () -> 0.0);
        assertThat(capped.shortestDelay()).isEqualTo(Duration.ofSeconds(4)).isEqualTo(capped.delayAfter(1, null));
    }

    @Test
    void delaysNeverExceedTheMaximum() {
        RetrySchedule capped = new RetrySchedule(Duration.ofSeconds(1), Duration.ofSeconds(4), 0.2, () -> 1.0);
        assertThat(capped.delayAfter(3, null)).isEqualTo(Duration.ofSeconds(4));
        assertThat(capped.nominalDelay(3)).isEqualTo(Duration.ofSeconds(4));
    }

    @Test
    void retryAfterLengthensUpToTheMaximumAndNeverShortens() {
        assertThat(schedule(0.5).delayAfter(1, Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(30));
        assertThat(schedule(0.5).delayAfter(1, Duration.ofHours(1))).isEqualTo(Duration.ofMinutes(2));
        assertThat(schedule(0.5).delayAfter(2, Duration.ofSeconds(1))).isEqualTo(Duration.ofSeconds(20));
    }
}
