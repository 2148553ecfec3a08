package dev.visibility.gateway.ratelimit;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Fixed windows counted in Redis with one atomic script per request, so that all gateway
 * replicas sharing the store admit at most the limit together. The window is aligned to the
 * clock, so every replica agrees on where it ends.
 */
public class RedisRateLimiter implements RateLimiter {

    private static final RedisScript<Long> INCREMENT = RedisScript.of("""
            local count = redis.call('INCR', KEYS[1])
            if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
            return count""", Long.class);

    private final ReactiveStringRedisTemplate redis;
    private final long windowMillis;
    private final Clock clock;
    private final Duration timeout;

    public RedisRateLimiter(ReactiveStringRedisTemplate redis, Duration window, Clock clock, Duration timeout) {
        this.redis = redis;
        this.windowMillis = window.toMillis();
        this.clock = clock;
        this.timeout = timeout;
    }

    @Override
    public Mono<Decision> consume(String key, int limit) {
        long now = clock.millis();
        long windowStart = now - now % windowMillis;
        long resetAt = (windowStart + windowMillis) / 1000;
        String redisKey = "ratelimit:" + key + ":" + windowStart;
        return increment(redisKey)
                .next()
                .timeout(timeout)
                .map(count -> new Decision(count <= limit, limit, (int) Math.max(0, limit - count), resetAt, Store.SHARED));
    }

    /**
     * Runs the counting script once on a key of its own: Lettuce connects on its first command and the
     * script is loaded on its first run, which together can outlast a request's {@code timeout} on a
     * busy machine (issue 22's fallback would then be taken, and logged, at every start).
     */
    @Override
    public Mono<Void> warmUp(Duration startTimeout) {
        return increment("ratelimit:warm-up")
                .then()
                .timeout(startTimeout);
    }

    /** The counting script on {@code redisKey}, which expires two windows after its first count. */
    private Flux<Long> increment(String redisKey) {
        return redis.execute(INCREMENT, List.of(redisKey), List.of(Long.toString(windowMillis * 2)));
    }
}
