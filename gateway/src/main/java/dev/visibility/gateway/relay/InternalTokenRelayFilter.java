package dev.visibility.gateway.relay;

import java.time.Duration;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.visibility.gateway.auth.EdgePrincipal;
import dev.visibility.platform.security.InternalTokenMinter;
import dev.visibility.platform.security.InternalTokenProperties;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
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
 */
@Component
public class InternalTokenRelayFilter implements GlobalFilter, Ordered {


    private final InternalTokenMinter minter;
    private final Cache<EdgePrincipal, String> tokens;

    public InternalTokenRelayFilter(InternalTokenMinter minter, InternalTokenProperties properties) {
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
        ServerWebExchange forwarded = exchange.mutate()
                .request(request -> request.headers(headers -> {
                    headers.remove(HttpHeaders.AUTHORIZATION);
                    if (!signIn) {
                        headers.remove(HttpHeaders.COOKIE);
                    }
                    if (token != null) {
                        headers.setBearerAuth(token);
                    }
                }))
                .build();
        return chain.filter(forwarded);
    }
}
