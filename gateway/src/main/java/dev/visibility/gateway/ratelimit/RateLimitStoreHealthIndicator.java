package dev.visibility.gateway.ratelimit;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.boot.health.contributor.Status;
import reactor.core.publisher.Mono;

/**
 * The readiness component {@code rateLimitStore} (issue 22): {@code UP} while limits are counted
 * as configured, {@code DEGRADED} while the shared store is down and this replica counts alone.
 * DEGRADED is not DOWN: readiness still answers 200, since the gateway serves every request.
 */
class RateLimitStoreHealthIndicator implements ReactiveHealthIndicator {

    static final Status DEGRADED = new Status("DEGRADED", "shared rate-limit store unreachable; per-replica limits");

    private final RateLimiter limiter;

    RateLimitStoreHealthIndicator(RateLimiter limiter) {
        this.limiter = limiter;
    }

    @Override
    public Mono<Health> health() {
        if (limiter instanceof FallbackRateLimiter fallback) {
            fallback.probeIfDue();
            if (fallback.degraded()) {
                return Mono.just(Health.status(DEGRADED).build());
            }
        }
        return Mono.just(Health.up().build());
    }
}
