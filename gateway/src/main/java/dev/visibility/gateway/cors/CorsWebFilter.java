package dev.visibility.gateway.cors;

import dev.visibility.gateway.EdgeFilterOrder;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * CORS from any origin (spec 5.9): preflights are answered here without a key; the actual request
 * still needs a valid key. Credentials travel in the Authorization header, never in cookies, so
 * {@code Access-Control-Allow-Origin: *} is safe and lets browsers read the rate-limit headers.
 */
@Component
public class CorsWebFilter implements WebFilter, Ordered {

    static final String ALLOWED_METHODS = "GET, POST, PATCH, DELETE, OPTIONS";
    static final String ALLOWED_HEADERS = "Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID";
    static final String EXPOSED_HEADERS = "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Mcp-Session-Id";

    @Override
    public int getOrder() {
        return EdgeFilterOrder.CORS;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        ServerHttpRequest request = exchange.getRequest();
        String origin = request.getHeaders().getOrigin();
        String path = request.getPath().pathWithinApplication().value();
        if (origin == null || !(path.startsWith("/api/") || path.startsWith("/.well-known/"))) {
            return chain.filter(exchange);
        }
        ServerHttpResponse response = exchange.getResponse();
        HttpHeaders headers = response.getHeaders();
        headers.set(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN, "*");
        boolean preflight = request.getMethod() == HttpMethod.OPTIONS
                && request.getHeaders().getFirst(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD) != null;
        if (preflight) {
            headers.set(HttpHeaders.ACCESS_CONTROL_ALLOW_METHODS, ALLOWED_METHODS);
            headers.set(HttpHeaders.ACCESS_CONTROL_ALLOW_HEADERS, ALLOWED_HEADERS);
            headers.set(HttpHeaders.ACCESS_CONTROL_MAX_AGE, "600");
            response.setStatusCode(HttpStatus.NO_CONTENT);
            return response.setComplete();
        }
        headers.set(HttpHeaders.ACCESS_CONTROL_EXPOSE_HEADERS, EXPOSED_HEADERS);
        return chain.filter(exchange);
    }
}
