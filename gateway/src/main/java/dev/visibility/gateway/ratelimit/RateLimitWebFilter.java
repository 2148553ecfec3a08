package dev.visibility.gateway.ratelimit;

import java.util.Map;

import dev.visibility.gateway.EdgeFilterOrder;
import dev.visibility.gateway.auth.EdgePrincipal;
import dev.visibility.gateway.usage.UsageRecorder;
import dev.visibility.platform.error.ApiException;
import dev.visibility.platform.error.ErrorCode;
import dev.visibility.platform.error.Unavailable;
import dev.visibility.platform.error.reactive.ReactiveErrorWriter;
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
 */
@Component
public class RateLimitWebFilter implements WebFilter, Ordered {

    public static final String LIMIT = "X-RateLimit-Limit";
    public static final String REMAINING = "X-RateLimit-Remaining";
    public static final String RESET = "X-RateLimit-Reset";

    private static final Logger log = LoggerFactory.getLogger(RateLimitWebFilter.class);

    private final RateLimiter limiter;
    private final RateLimitProperties properties;
    private final UsageRecorder usage;
    private final ReactiveErrorWriter errors;

    public RateLimitWebFilter(RateLimiter limiter, RateLimitProperties properties, UsageRecorder usage,
            ReactiveErrorWriter errors) {
        this.limiter = limiter;
        this.properties = properties;
        this.usage = usage;
        this.errors = errors;
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
        int limit = principal.kind() == EdgePrincipal.Kind.MEMBER ? properties.member() : properties.limitFor(principal.plan());
        usage.record(principal);
        return limiter.consume(principal.limitKey(), limit)
                .onErrorMap(e -> {
                    log.warn("Rate-limit store unavailable: {}", e.toString());
                    return new Unavailable("The service is temporarily unavailable; retry later");
                })
                .flatMap(decision -> {
                    HttpHeaders headers = exchange.getResponse().getHeaders();
                    headers.set(LIMIT, Integer.toString(decision.limit()));
                    headers.set(REMAINING, Integer.toString(decision.remaining()));
                    headers.set(RESET, Long.toString(decision.resetAt()));
                    if (decision.allowed()) {
                        return chain.filter(exchange);
                    }
                    long retryAfter = Math.max(1, decision.resetAt() - System.currentTimeMillis() / 1000);
                    return errors.write(exchange.getResponse(), new ApiException(ErrorCode.RATE_LIMITED, 429,
                            "Rate limit of " + decision.limit() + " requests per " + properties.window().toSeconds()
                                    + " s exceeded; retry after " + retryAfter + " s",
                            null, Map.of(HttpHeaders.RETRY_AFTER, Long.toString(retryAfter))));
                });
    }
}
