package dev.visibility.gateway.relay;

import dev.visibility.gateway.routing.RouteTable;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;

import java.net.URI;

/**
 * Tells auth-service the public origin on its sign-in routes ({@link RouteTable#SIGN_IN_ROUTES}):
 * {@code X-Forwarded-Proto}, {@code -Host} and {@code -Port} as this gateway sees the request, so
 * that the OAuth metadata, the issuer and every redirect name the public origin (issue 20). Runs
 * after Spring Cloud Gateway's removal of the callers' {@code X-Forwarded-*} headers (order 0), so
 * what a caller claims never travels; other routes get no forwarded headers.
 */
@Component
public class SignInForwardedHeaders implements HttpHeadersFilter, Ordered {

    static final String PROTO = "X-Forwarded-Proto";
    static final String HOST = "X-Forwarded-Host";
    static final String PORT = "X-Forwarded-Port";

    static boolean isSignInRoute(Route route) {
        return route != null && RouteTable.SIGN_IN_ROUTES.contains(route.getId());
    }

    @Override
    public int getOrder() {
        return 100;
    }

    @Override
    public HttpHeaders filter(HttpHeaders input, ServerWebExchange exchange) {
        Route route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
        if (!isSignInRoute(route)) {
            return input;
        }
        URI origin = exchange.getRequest().getURI();
        HttpHeaders updated = new HttpHeaders();
        for (java.util.Map.Entry<String, java.util.List<String>> header : input.headerSet()) {
            if (!header.getKey().toLowerCase(java.util.Locale.ROOT).startsWith("x-forwarded-")) {
                updated.addAll(header.getKey(), header.getValue());
            }
        }
        updated.set(PROTO, origin.getScheme());
        updated.set(HOST, origin.getHost());
        updated.set(PORT, String.valueOf(origin.getPort() != -1 ? origin.getPort()
                : "https".equalsIgnoreCase(origin.getScheme()) ? 443 : 80));
        return updated;
    }
}
