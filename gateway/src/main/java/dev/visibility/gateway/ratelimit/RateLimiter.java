package dev.visibility.gateway.ratelimit;

import reactor.core.publisher.Mono;

/** A fixed-window counter per key. */
public interface RateLimiter {

    /** Counts one request of {@code key} and says whether it is admitted. */
    Mono<Decision> consume(String key, int limit);

    /**
     * @param allowed    whether the request is admitted
     * @param limit      requests per window
     * @param remaining  requests left in this window (never negative)
     * @param resetAt    Unix seconds at which this window ends
     */
    record Decision(boolean allowed, int limit, int remaining, long resetAt) {
    }
}
