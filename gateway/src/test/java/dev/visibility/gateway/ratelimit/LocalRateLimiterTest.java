package dev.visibility.gateway.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

/** Spec 7 (429 and X-RateLimit-*): a fixed window per key; Reset is the window's end in Unix seconds. */
class LocalRateLimiterTest {

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-11-22T10:00:10Z"));
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    };

    @Test
    void admitsTheLimitThenRefusesUntilTheWindowEnds() {
        LocalRateLimiter limiter = new LocalRateLimiter(Duration.ofMinutes(1), clock);
        for (int i = 1; i <= 3; i++) {
            RateLimiter.Decision decision = limiter.consume("key:a", 3).block();
            assertThat(decision.allowed()).isTrue();
            assertThat(decision.remaining()).isEqualTo(3 - i);
            assertThat(decision.resetAt()).isEqualTo(Instant.parse("2026-11-22T10:01:00Z").getEpochSecond());
        }
        RateLimiter.Decision refused = limiter.consume("key:a", 3).block();
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.remaining()).isZero();
        assertThat(limiter.consume("key:b", 3).block().allowed()).as("another key has its own window").isTrue();
        now.set(Instant.parse("2026-11-22T10:01:00Z"));
        RateLimiter.Decision next = limiter.consume("key:a", 3).block();
        assertThat(next.allowed()).isTrue();
        assertThat(next.remaining()).isEqualTo(2);
        assertThat(next.resetAt()).isEqualTo(Instant.parse("2026-11-22T10:02:00Z").getEpochSecond());
    }
}
