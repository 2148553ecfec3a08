package dev.visibility.gateway.relay;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.visibility.gateway.auth.EdgePrincipal;
import dev.visibility.gateway.routing.RouteTable;
import dev.visibility.platform.security.InternalTokenMinter;
import dev.visibility.platform.security.InternalTokenProperties;
import io.micrometer.observation.Observation;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.handler.TracingObservationHandler;
import io.micrometer.tracing.propagation.Propagator;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;

/**
 * The headers a service gets (DESIGN.md, request path 5): the caller's credential is replaced with
 * the short-lived internal token, so services never see an API key and callers never see the token.
 * <ul>
 * <li>No cookie reaches a service, except on the sign-in routes of auth-service
 * ({@link RouteTable#SIGN_IN_ROUTES}, no principal), which keep the browser's session.</li>
 * <li>The sign-in routes get the public origin as this gateway sees the request, in
 * {@code X-Forwarded-Proto}, {@code -Host} and {@code -Port}, so that the OAuth metadata, the issuer and every
 * redirect name the public origin (issue 20); no route gets a caller's own {@code X-Forwarded-*} header.</li>
 * <li>The trace is handed on (docs/operations.md, Traces): the service gets the W3C {@code traceparent} of the
 * gateway's span of this request, and no trace header of the caller ({@code traceparent}, {@code tracestate},
 * {@code b3}, {@code X-B3-*}, {@code baggage}). Spring Cloud Gateway's own client observation, which did the same
 * with a span and a timer per forwarded request, is off
 * ({@code spring.cloud.gateway.server.webflux.observability.enabled}): it took 6-9 % of the gateway's CPU
 * samples (issue 24, bench/GatewayOverhead.md).</li>
 * </ul>
 * A principal's token is reused for the first half of its life instead of being signed anew on every request;
 * a revoked key never gets here, so reuse cannot outlive a revocation.
 * <p>
 * One of Spring Cloud Gateway's request header filters, so that the forwarded headers are written once, in the
 * copy the proxy makes anyway (issue 24: as a global filter that mutated the exchange it copied the request and
 * its headers once more for every request). In the same pass it leaves out a caller's {@code Forwarded} and
 * {@code X-Forwarded-*} headers and the hop-by-hop headers ({@link HopByHopHeaders}), which Spring Cloud Gateway's
 * own filters removed with a copy each; it is the proxy's only request header filter that copies.
 */
@Component
public class InternalTokenRelayFilter implements HttpHeadersFilter, Ordered {

    static final String TRACEPARENT = "traceparent";
    static final String PROTO = "X-Forwarded-Proto";
    static final String HOST = "X-Forwarded-Host";
    static final String PORT = "X-Forwarded-Port";
    static final String FORWARDED = "Forwarded";

    /** The trace headers of the formats a caller may use, whatever the suite's propagation reads or writes. */
    private static final List<String> CALLER_TRACE_HEADERS = List.of("traceparent", "tracestate", "baggage", "b3",
            "x-b3-traceid", "x-b3-spanid", "x-b3-parentspanid", "x-b3-sampled", "x-b3-flags");

    private final InternalTokenMinter minter;
    private final Cache<EdgePrincipal, String> tokensByIdentity;
    private final Cache<EdgePrincipal, String> tokensByValue;
    private final Propagator propagator;
    /** The trace headers that never reach a service when the gateway hands on its own (compared ignoring case). */
    private final String[] traceHeaders;

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
        Set<String> fields = new LinkedHashSet<>(CALLER_TRACE_HEADERS);
        for (String field : propagator.fields()) {
            fields.add(field.toLowerCase(Locale.ROOT));
        }
        this.traceHeaders = fields.toArray(String[]::new);
        this.minter = minter;
        Duration reuse = properties.ttl().dividedBy(2).isZero() ? Duration.ofSeconds(1) : properties.ttl().dividedBy(2);
        // keys' and members' principals come from the credential cache, one object per credential until it is looked
        // up again (a changed key is a new object, so a new token): they are looked up by identity (weak keys),
        // because hashing the principal record (its scope and feature sets) on every request was half of this
        // filter's CPU (issue 24). An OAuth client's principal is made anew for each request from its verified
        // token, so those are looked up by value.
        this.tokensByIdentity = Caffeine.newBuilder().weakKeys().expireAfterWrite(reuse).maximumSize(100_000).build();
        this.tokensByValue = Caffeine.newBuilder().expireAfterWrite(reuse).maximumSize(100_000).build();
    }

    static boolean isSignInRoute(Route route) {
        return route != null && RouteTable.SIGN_IN_ROUTES.contains(route.getId());
    }

    @Override
    public int getOrder() {
        return 100;
    }

    @Override
    public HttpHeaders filter(HttpHeaders input, ServerWebExchange exchange) {
        EdgePrincipal principal = exchange.getAttribute(EdgePrincipal.ATTRIBUTE);
        String token = principal == null ? null : tokenOf(principal);
        boolean signInRoute = isSignInRoute(exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR));
        boolean keepCookies = principal == null && signInRoute;
        Span span = serverSpan(exchange);
        HttpHeaders forwarded = new HttpHeaders();
        boolean ownTrace = span != null;
        List<String> connectionOptions = HopByHopHeaders.connectionOptions(input);
        input.forEach((name, values) -> {
            if (!dropped(name, keepCookies, ownTrace) && !HopByHopHeaders.isHopByHop(name, connectionOptions)) {
                forwarded.addAll(name, values);
            }
        });
        if (token != null) {
            forwarded.setBearerAuth(token);
        }
        if (span != null) {
            forwarded.set(TRACEPARENT, traceparent(span.context()));
        }
        if (signInRoute) {
            URI origin = exchange.getRequest().getURI();
            forwarded.set(PROTO, origin.getScheme());
            forwarded.set(HOST, origin.getHost());
            forwarded.set(PORT, String.valueOf(origin.getPort() != -1 ? origin.getPort()
                    : "https".equalsIgnoreCase(origin.getScheme()) ? 443 : 80));
        }
        return forwarded;
    }

    /** The internal token of this principal: minted once and reused for the first half of its life. */
    public String tokenOf(EdgePrincipal principal) {
        Cache<EdgePrincipal, String> tokens = principal.kind() == EdgePrincipal.Kind.OAUTH_CLIENT ? tokensByValue : tokensByIdentity;
        return tokens.get(principal, p -> minter.mint(p.toCaller()));
    }

    /**
     * Whether a caller's header of an API key's request reaches the service, with the gateway's own trace handed
     * on (hop-by-hop headers aside: {@link HopByHopHeaders}); the edge fast path forwards exactly these.
     */
    public boolean forwardsOnApiKeyRequest(String name) {
        return !dropped(name, false, true);
    }

    /** Whether this is a caller's trace header (any format a caller may use, and the suite's propagation's fields). */
    public boolean isTraceHeader(String name) {
        for (String trace : traceHeaders) {
            if (trace.equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }

    private boolean dropped(String name, boolean keepCookies, boolean ownTrace) {
        if (name.equalsIgnoreCase(HttpHeaders.AUTHORIZATION) || name.regionMatches(true, 0, "x-forwarded-", 0, 12)
                || name.equalsIgnoreCase(FORWARDED)) {
            return true;
        }
        if (!keepCookies && name.equalsIgnoreCase(HttpHeaders.COOKIE)) {
            return true;
        }
        return ownTrace && isTraceHeader(name);
    }

    /**
     * The W3C trace context header (https://www.w3.org/TR/trace-context/#traceparent-header) of a
     * span, as the suite's propagation writes it (version 00, the sampled flag only); written here
     * rather than through the propagator, whose baggage handling cost more than the rest of this filter.
     */
    public static String traceparent(TraceContext context) {
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
