package dev.visibility.gateway.relay;

import dev.visibility.gateway.auth.EdgePrincipal;
import dev.visibility.platform.security.InternalTokenMinter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Replaces the caller's credential with the short-lived internal token before forwarding
 * (DESIGN.md, request path 5): services never see an API key, and callers never see the token.
 */
@Component
public class InternalTokenRelayFilter implements GlobalFilter, Ordered {

    private final InternalTokenMinter minter;

    public InternalTokenRelayFilter(InternalTokenMinter minter) {
        this.minter = minter;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 100;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        EdgePrincipal principal = exchange.getAttribute(EdgePrincipal.ATTRIBUTE);
        String token = principal == null ? null : minter.mint(principal.toCaller());
        ServerWebExchange forwarded = exchange.mutate()
                .request(request -> request.headers(headers -> {
                    headers.remove(HttpHeaders.AUTHORIZATION);
                    headers.remove(HttpHeaders.COOKIE);
                    if (token != null) {
                        headers.setBearerAuth(token);
                    }
                }))
                .build();
        return chain.filter(forwarded);
    }
}
