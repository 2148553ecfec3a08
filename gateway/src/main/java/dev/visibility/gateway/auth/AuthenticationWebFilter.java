package dev.visibility.gateway.auth;

import java.util.Optional;

import dev.visibility.gateway.EdgeFilterOrder;
import dev.visibility.gateway.routing.ApiRoute;
import dev.visibility.gateway.routing.RouteResolver;
import dev.visibility.platform.error.Unauthorized;
import dev.visibility.platform.error.reactive.ReactiveErrorWriter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Authenticates every {@code /api/**} request (spec 5.1): an API key, or on the account API a
 * member access token. Missing, malformed, unknown and revoked credentials all get the same 401
 * body; the credential itself is never logged. OAuth metadata and sign-in paths are public.
 */
@Component
public class AuthenticationWebFilter implements WebFilter, Ordered {

    private final Credentials credentials;
    private final CredentialCache cache;
    private final RouteResolver routes;
    private final ReactiveErrorWriter errors;

    public AuthenticationWebFilter(EdgeAuthProperties properties, CredentialCache cache, RouteResolver routes,
            ReactiveErrorWriter errors) {
        this.credentials = new Credentials(properties.keyPrefix());
        this.cache = cache;
        this.routes = routes;
        this.errors = errors;
    }

    @Override
    public int getOrder() {
        return EdgeFilterOrder.AUTHENTICATION;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        ServerHttpRequest request = exchange.getRequest();
        String path = request.getPath().pathWithinApplication().value();
        if (!path.startsWith("/api/") && !path.equals("/api") || request.getMethod() == HttpMethod.OPTIONS) {
            return chain.filter(exchange);
        }
        ApiRoute route = routes.resolve(request.getMethod().name(), path);
        if (route != null && ApiRoute.PUBLIC.equals(route.scope())) {
            return chain.filter(exchange);
        }
        String token = Credentials.bearer(request.getHeaders().getFirst(HttpHeaders.AUTHORIZATION));
        Mono<Optional<EdgePrincipal>> principal;
        if (token != null && route != null && ApiRoute.MEMBER.equals(route.scope())) {
            principal = Credentials.isMemberToken(token) ? cache.memberToken(Credentials.sha256Hex(token)) : Mono.just(Optional.empty());
        } else if (token != null && credentials.isApiKey(token)) {
            principal = cache.apiKey(Credentials.sha256Hex(token));
        } else {
            principal = Mono.just(Optional.empty());
        }
        return principal.flatMap(found -> {
            if (found.isEmpty()) {
                return errors.write(exchange.getResponse(), new Unauthorized());
            }
            exchange.getAttributes().put(EdgePrincipal.ATTRIBUTE, found.get());
            return chain.filter(exchange);
        });
    }
}
