package dev.visibility.gateway.ratelimit;

import java.util.Map;

import dev.visibility.gateway.EdgeFilterOrder;
import dev.visibility.gateway.auth.EdgePrincipal;
import dev.visibility.gateway.usage.UsageRecorder;
import dev.visibility.platform.error.ApiException;
import dev.visibility.platform.error.ErrorCode;
import dev.visibility.platform.error.Unavailable;
import dev.visibility.platform.error.reactive.ReactiveErrorWriter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Counts every authenticated request against its key's window and puts {@code X-RateLimit-Limit},
 * {@code X-RateLimit-Remaining} and {@code X-RateLimit-Reset} (Unix seconds of the window's end)
 * on every answer, errors included (spec 7). Over the limit: 429 {@code rate_limited} with
 * {@code Retry-After}.
 * <p>
 * Every decision is counted in {@code gateway.rate.limit.decisions} (issue 23), tagged
 * {@code outcome} ({@code allowed}, {@code refused}) and {@code store} ({@code shared}: Redis,
 * {@code local}: this replica as configured, {@code fallback}: this replica because Redis did not
 * answer); the six counters are registered once, so counting is one add on the hot path.
 */
@Component
public class RateLimitWebFilter implements WebFilter, Ordered {

    public static final String LIMIT = "X-RateLimit-Limit";
    public static final String REMAINING = "X-RateLimit-Remaining";
    public static final String RESET = "X-RateLimit-Reset";

    /** The decision counter (Prometheus {@code gateway_rate_limit_decisions_total}), docs/operations.md. */
    public static final String DECISIONS = "gateway.rate.limit.decisions";

    private static final Logger log = LoggerFactory.getLogger(RateLimitWebFilter.class);

    private final RateLimiter limiter;
    private final RateLimitProperties properties;
    private final UsageRecorder usage;
    private final ReactiveErrorWriter errors;
    /** [store ordinal][0 refused, 1 allowed] */
    private final Counter[][] decisions = new Counter[RateLimiter.Store.values().length][2];

    public RateLimitWebFilter(RateLimiter limiter, RateLimitProperties properties, UsageRecorder usage,
            ReactiveErrorWriter errors, MeterRegistry meters) {
        this.limiter = limiter;
        this.properties = properties;
        this.usage = usage;
        this.errors = errors;
        for (RateLimiter.Store store : RateLimiter.Store.values()) {
            for (int allowed = 0; allowed < 2; allowed++) {
                decisions[store.ordinal()][allowed] = Counter.builder(DECISIONS)
                        .description("Rate-limit decisions on authenticated requests, by outcome and by where they were taken")
                        .tag("outcome", allowed == 1 ? "allowed" : "refused")
                        .tag("store", store.tag())
                        .register(meters);
            }
        }
    }

    @Override
    public int getOrder() {
        return EdgeFilterOrder.RATE_LIMIT;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        EdgePrincipal principal = exchange.getAttribute(EdgePrincipal.ATTRIBUTE);
        if (principal == null) {
            return chain.filter(exchange);
        }
        return decide(principal).flatMap(decision -> {
            HttpHeaders headers = exchange.getResponse().getHeaders();
            headers.set(LIMIT, Integer.toString(decision.limit()));
            headers.set(REMAINING, Integer.toString(decision.remaining()));
            headers.set(RESET, Long.toString(decision.resetAt()));
            return decision.allowed() ? chain.filter(exchange) : errors.write(exchange.getResponse(), refusal(decision));
        });
    }

    /**
     * Counts one request of this principal (its usage and its window) and says whether it is admitted; a store that
     * does not answer is a 503 {@code unavailable}. Every decision is counted in {@link #DECISIONS}. The edge fast
     * path ({@code routing.EdgeFastPath}) takes its decisions here too.
     */
    public Mono<RateLimiter.Decision> decide(EdgePrincipal principal) {
        int limit = principal.kind() == EdgePrincipal.Kind.MEMBER ? properties.member() : properties.limitFor(principal.plan());
        usage.record(principal);
        return limiter.consume(principal.limitKey(), limit)
                .onErrorMap(e -> {
                    log.warn("Rate-limit store unavailable: {}", e.toString());
                    return new Unavailable("The service is temporarily unavailable; retry later");
                })
                .doOnNext(decision -> decisions[decision.store().ordinal()][decision.allowed() ? 1 : 0].increment());
    }

    /** The 429 of a refused decision, with {@code Retry-After}. */
    public ApiException refusal(RateLimiter.Decision decision) {
        long retryAfter = Math.max(1, decision.resetAt() - System.currentTimeMillis() / 1000);
        return new ApiException(ErrorCode.RATE_LIMITED, 429,
                "Rate limit of " + decision.limit() + " requests per " + properties.window().toSeconds()
                        + " s exceeded; retry after " + retryAfter + " s",
                null, Map.of(HttpHeaders.RETRY_AFTER, Long.toString(retryAfter)));
    }
}
