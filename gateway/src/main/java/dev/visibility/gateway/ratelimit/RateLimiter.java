package dev.visibility.gateway.ratelimit;

import java.time.Duration;

import reactor.core.publisher.Mono;

/** A fixed-window counter per key. */
public interface RateLimiter {

    /** Counts one request of {@code key} and says whether it is admitted. */
    Mono<Decision> consume(String key, int limit);

    /**
     * Makes the first request's path ready before traffic comes: a store behind the network opens its
     * connection and loads what it runs, given {@code timeout} (longer than a request's budget). Nothing
     * to do for a limiter in this process.
     */
    default Mono<Void> warmUp(Duration timeout) {
        return Mono.empty();
    }

    /**
     * Where a decision was taken, the {@code store} tag of {@code gateway.rate.limit.decisions}
     * (docs/operations.md).
     */
    enum Store {
        /** the shared store (Redis): exact across replicas */
        SHARED("shared"),
        /** this replica's own windows, as configured ({@code suite.rate-limit.store=local}) */
        LOCAL("local"),
        /** this replica's own windows because the shared store did not answer (issue 22) */
        FALLBACK("fallback");

        private final String tag;

        Store(String tag) {
            this.tag = tag;
        }

        public String tag() {
            return tag;
        }
    }

    /**
     * @param allowed    whether the request is admitted
     * @param limit      requests per window
     * @param remaining  requests left in this window (never negative)
     * @param resetAt    Unix seconds at which this window ends
     * @param store      where the decision was taken
     */
    record Decision(boolean allowed, int limit, int remaining, long resetAt, Store store) {

        /** The same decision, taken by this replica's windows while the shared store is down. */
        Decision asFallback() {
            return new Decision(allowed, limit, remaining, resetAt, Store.FALLBACK);
        }
    }
}
