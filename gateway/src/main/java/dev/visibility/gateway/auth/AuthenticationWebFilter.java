package dev.visibility.gateway.auth;

import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import dev.visibility.gateway.EdgeFilterOrder;
import dev.visibility.gateway.ratelimit.RateLimitWebFilter;
import dev.visibility.gateway.routing.ApiRoute;
import dev.visibility.gateway.routing.RouteResolver;
import dev.visibility.gateway.routing.RouteTable;
import dev.visibility.platform.error.ApiException;
import dev.visibility.platform.error.ErrorCode;
import dev.visibility.platform.error.Unauthorized;
import dev.visibility.platform.error.reactive.ReactiveErrorWriter;
import dev.visibility.platform.security.ProjectPaths;
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
 * <p>
 * Failed authentications are counted per client address ({@link FailedAuthenticationLimiter}):
 * an address that used up its failures gets 429 {@code rate_limited} with the
 * {@code X-RateLimit-*} headers and {@code Retry-After}, before any lookup, for every credential
 * this gateway does not already know as valid.
 */
@Component
public class AuthenticationWebFilter implements WebFilter, Ordered {

    private final Credentials credentials;
    private final CredentialCache cache;
    private final RouteResolver routes;
    private final ReactiveErrorWriter errors;
    private final FailedAuthenticationLimiter failures;

    public AuthenticationWebFilter(EdgeAuthProperties properties, CredentialCache cache, RouteResolver routes,
            ReactiveErrorWriter errors) {
        this.credentials = new Credentials(properties.keyPrefix());
        this.cache = cache;
        this.routes = routes;
        this.errors = errors;
        this.failures = new FailedAuthenticationLimiter(properties.failedAuthenticationsPerMinute(), Duration.ofMinutes(1),
                Clock.systemUTC());
    }

    @Override
    public int getOrder() {
        return EdgeFilterOrder.AUTHENTICATION;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        ServerHttpRequest request = exchange.getRequest();
        String path = request.getPath().pathWithinApplication().value();
        if (!underApi(path) || request.getMethod() == HttpMethod.OPTIONS || openApiDocument(request, path)) {
            return chain.filter(exchange);
        }
        ApiRoute route = routes.resolve(exchange);
        if (route != null && ApiRoute.PUBLIC.equals(route.scope())) {
            return chain.filter(exchange);
        }
        if (exchange.getAttribute(EdgePrincipal.ATTRIBUTE) != null) {
            // an MCP OAuth access token, verified by mcp.McpOAuthWebFilter before this filter
            return chain.filter(exchange);
        }
        String token = Credentials.bearer(request.getHeaders().getFirst(HttpHeaders.AUTHORIZATION));
        boolean memberRoute = route != null && ApiRoute.MEMBER.equals(route.scope());
        String address = clientAddress(request);
        FailedAuthenticationLimiter.Budget budget = failures.budget(address);
        if (budget.exhausted()) {
            Optional<EdgePrincipal> known = token != null && !memberRoute && credentials.isApiKey(token)
                    ? cache.knownApiKey(Credentials.sha256Hex(token)) : Optional.empty();
            if (known.isEmpty()) {
                return tooManyFailures(exchange, budget);
            }
            exchange.getAttributes().put(EdgePrincipal.ATTRIBUTE, known.get());
            return chain.filter(exchange);
        }
        Mono<Optional<EdgePrincipal>> principal;
        if (token != null && memberRoute) {
            principal = Credentials.isMemberToken(token) ? cache.memberToken(Credentials.sha256Hex(token)) : Mono.just(Optional.empty());
        } else if (token != null && credentials.isApiKey(token)) {
            principal = cache.apiKey(Credentials.sha256Hex(token));
        } else {
            principal = Mono.just(Optional.empty());
        }
        return principal.flatMap(found -> {
            if (found.isEmpty()) {
                failures.failed(address);
                return errors.write(exchange.getResponse(), new Unauthorized());
            }
            exchange.getAttributes().put(EdgePrincipal.ATTRIBUTE, found.get());
            return chain.filter(exchange);
        });
    }

    /** The OpenAPI document is public (issue 23): exactly its path, read with GET or HEAD. */
    private static boolean openApiDocument(ServerHttpRequest request, String path) {
        return RouteTable.OPENAPI_DOCUMENT.equals(path)
                && (request.getMethod() == HttpMethod.GET || request.getMethod() == HttpMethod.HEAD);
    }

    /** Whether the decoded path lies under {@code /api} (a spelling such as {@code /%61pi/...} included). */
    static boolean underApi(String rawPath) {
        if (rawPath.indexOf('%') < 0 && rawPath.indexOf(';') < 0) {
            return rawPath.startsWith("/api/") || rawPath.equals("/api");
        }
        var segments = ProjectPaths.decodedSegments(rawPath);
        return !segments.isEmpty() && segments.get(0).equals("api");
    }

    private static String clientAddress(ServerHttpRequest request) {
        InetSocketAddress remote = request.getRemoteAddress();
        if (remote == null) {
            return "unknown";
        }
        return remote.getAddress() != null ? remote.getAddress().getHostAddress() : remote.getHostString();
    }

    private Mono<Void> tooManyFailures(ServerWebExchange exchange, FailedAuthenticationLimiter.Budget budget) {
        HttpHeaders headers = exchange.getResponse().getHeaders();
        headers.set(RateLimitWebFilter.LIMIT, Integer.toString(budget.limit()));
        headers.set(RateLimitWebFilter.REMAINING, "0");
        headers.set(RateLimitWebFilter.RESET, Long.toString(budget.resetEpochSeconds()));
        return errors.write(exchange.getResponse(), new ApiException(ErrorCode.RATE_LIMITED, 429,
                "Too many failed authentications from this address; retry after " + budget.retryAfterSeconds() + " s",
                null, Map.of(HttpHeaders.RETRY_AFTER, Long.toString(budget.retryAfterSeconds()))));
    }
}
