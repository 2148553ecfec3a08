package dev.visibility.gateway.auth;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * Failed authentications per client address, in fixed windows aligned to the clock (issue 15):
 * once an address has used up its failures, its credentials are no longer looked up at
 * auth-service (only those already known to this gateway still pass), so a flood of random keys
 * cannot exhaust the lookup connections and starve real keys. Counted in this replica's memory.
 */
public class FailedAuthenticationLimiter {

    /** The budget of one address in the current window: the {@code X-RateLimit-*} values of a refusal. */
    public record Budget(boolean exhausted, int limit, int remaining, long resetEpochSeconds, long retryAfterSeconds) {
    }

    private final Cache<String, AtomicInteger> windows;
    private final int limit;
    private final long windowMillis;
    private final Clock clock;

    public FailedAuthenticationLimiter(int limit, Duration window, Clock clock) {
        this.limit = limit;
        this.windowMillis = window.toMillis();
        this.clock = clock;
        this.windows = Caffeine.newBuilder().expireAfterWrite(window.multipliedBy(2)).maximumSize(200_000).build();
    }

    /** The address's budget now, without using any of it. */
    public Budget budget(String address) {
        long now = clock.millis();
        long windowStart = now - now % windowMillis;
        AtomicInteger failures = windows.getIfPresent(address + "@" + windowStart);
        return budget(failures == null ? 0 : failures.get(), now, windowStart);
    }

    /** Counts one failed authentication of the address. */
    public void failed(String address) {
        long now = clock.millis();
        long windowStart = now - now % windowMillis;
        windows.get(address + "@" + windowStart, k -> new AtomicInteger()).incrementAndGet();
    }

    private Budget budget(int failures, long now, long windowStart) {
        long end = windowStart + windowMillis;
        return new Budget(failures >= limit, limit, Math.max(0, limit - failures), end / 1000,
                Math.max(1, (end - now + 999) / 1000));
    }
}
