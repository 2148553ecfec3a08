package dev.visibility.gateway.ratelimit;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import reactor.core.publisher.Mono;

/** Fixed windows counted in this replica's memory (Caffeine); exact for one replica only. */
public class LocalRateLimiter implements RateLimiter {

    private final Cache<String, AtomicInteger> windows;
    private final long windowMillis;
    private final Clock clock;

    public LocalRateLimiter(Duration window, Clock clock) {
        this.windowMillis = window.toMillis();
        this.clock = clock;
        this.windows = Caffeine.newBuilder().expireAfterWrite(window.multipliedBy(2)).maximumSize(1_000_000).build();
    }

    @Override
    public Mono<Decision> consume(String key, int limit) {
        long now = clock.millis();
        long windowStart = now - now % windowMillis;
        int count = windows.get(key + "@" + windowStart, k -> new AtomicInteger()).incrementAndGet();
        long resetAt = (windowStart + windowMillis) / 1000;
        return Mono.just(new Decision(count <= limit, limit, Math.max(0, limit - count), resetAt, Store.LOCAL));
    }
}
