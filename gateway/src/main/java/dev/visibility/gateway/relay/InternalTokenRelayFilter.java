package dev.visibility.gateway.relay;

import java.time.Duration;
import java.util.List;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.visibility.gateway.auth.EdgePrincipal;
import dev.visibility.platform.security.InternalTokenMinter;
import dev.visibility.platform.security.InternalTokenProperties;
import io.micrometer.observation.Observation;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.handler.TracingObservationHandler;
import io.micrometer.tracing.propagation.Propagator;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Replaces the caller's credential with the short-lived internal token before forwarding
 * (DESIGN.md, request path 5): services never see an API key, and callers never see the token.
 * The sign-in routes of auth-service ({@link RouteTable#SIGN_IN_ROUTES}, no principal) keep the
 * browser's cookies ({@link SignInForwardedHeaders} adds the public origin to them); no other
 * request carries cookies to a service.
 * A principal's token is reused for the first half of its life instead of being signed anew on
 * every request; a revoked key never gets here, so reuse cannot outlive a revocation.
 * <p>
 * It also hands the trace on (docs/operations.md, Traces): the service gets the W3C
 * {@code traceparent} of the gateway's span of this request, and no trace header of the caller.
 * Spring Cloud Gateway's own client observation, which did the same with a span and a timer per
 * forwarded request, is off ({@code spring.cloud.gateway.server.webflux.observability.enabled}):
 * it took 6-9 % of the gateway's CPU samples (issue 24, bench/GatewayOverhead.md).
 */
@Component
public class InternalTokenRelayFilter implements GlobalFilter, Ordered {


    static final String TRACEPARENT = "traceparent";

    private final InternalTokenMinter minter;
    private final Cache<EdgePrincipal, String> tokens;
    private final Propagator propagator;
    /** The trace headers a caller may send (W3C, B3, baggage): none of them reaches a service. */
    private final List<String> traceHeaders;

    public InternalTokenRelayFilter(InternalTokenMinter minter, InternalTokenProperties properties) {
        this(minter, properties, Propagator.NOOP);
    }

    @Autowired
    public InternalTokenRelayFilter(InternalTokenMinter minter, InternalTokenProperties properties,
            ObjectProvider<Propagator> propagator) {
        this(minter, properties, propagator.getIfUnique(() -> Propagator.NOOP));
    }

    InternalTokenRelayFilter(InternalTokenMinter minter, InternalTokenProperties properties, Propagator propagator) {
        this.propagator = propagator;
        this.traceHeaders = List.copyOf(propagator.fields());
        this.minter = minter;
        this.tokens = Caffeine.newBuilder()
                .expireAfterWrite(properties.ttl().dividedBy(2).isZero() ? Duration.ofSeconds(1) : properties.ttl().dividedBy(2))
                .maximumSize(100_000)
                .build();
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 100;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        EdgePrincipal principal = exchange.getAttribute(EdgePrincipal.ATTRIBUTE);
        String token = principal == null ? null : tokens.get(principal, p -> minter.mint(p.toCaller()));
        Route route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
        boolean signIn = principal == null && SignInForwardedHeaders.isSignInRoute(route);
        Span span = serverSpan(exchange);
        ServerWebExchange forwarded = exchange.mutate()
                .request(request -> request.headers(headers -> {
                    headers.remove(HttpHeaders.AUTHORIZATION);
                    if (!signIn) {
                        headers.remove(HttpHeaders.COOKIE);
                    }
                    if (token != null) {
                        headers.setBearerAuth(token);
                    }
                    if (span != null) {
                        for (String field : traceHeaders) {
                            headers.remove(field);
                        }
                        headers.set(TRACEPARENT, traceparent(span.context()));
                    }
                }))
                .build();
        return chain.filter(forwarded);
    }

    /**
     * The W3C trace context header (https://www.w3.org/TR/trace-context/#traceparent-header) of a
     * span, as the suite's propagation writes it (version 00, the sampled flag only); written here
     * rather than through the propagator, whose baggage handling cost more than the rest of this filter.
     */
    static String traceparent(TraceContext context) {
        return "00-" + context.traceId() + "-" + context.spanId() + (Boolean.TRUE.equals(context.sampled()) ? "-01" : "-00");
    }

    /** The gateway's span of this request (its server observation), or null without tracing. */
    private Span serverSpan(ServerWebExchange exchange) {
        if (propagator == Propagator.NOOP) {
            return null;
        }
        Observation.Context context = ServerRequestObservationContext.findCurrent(exchange.getAttributes()).orElse(null);
        TracingObservationHandler.TracingContext tracing = context == null ? null
                : context.get(TracingObservationHandler.TracingContext.class);
        return tracing == null ? null : tracing.getSpan();
    }
}
