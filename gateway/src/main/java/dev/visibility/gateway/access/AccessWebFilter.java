package dev.visibility.gateway.access;

import java.util.Map;
import java.util.Set;

import dev.visibility.gateway.EdgeFilterOrder;
import dev.visibility.gateway.auth.EdgePrincipal;
import dev.visibility.gateway.routing.ApiRoute;
import dev.visibility.gateway.routing.RouteResolver;
import dev.visibility.platform.error.ApiException;
import dev.visibility.platform.error.ErrorCode;
import dev.visibility.platform.error.ErrorMapper;
import dev.visibility.platform.error.Forbidden;
import dev.visibility.platform.error.NotFound;
import dev.visibility.platform.error.reactive.ReactiveErrorWriter;
import dev.visibility.platform.security.ProjectPaths;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Project isolation and the scope check (DESIGN.md, request path 2 and 3): a path project other
 * than the key's is a 404, as an unknown resource would be (spec 5.4); a path no route knows is a
 * 404 (405 when only the method is wrong); a key without the route's scope is a 403, distinct
 * from 401 (spec 7); E1 also needs the project's {@code agent-picks} feature (spec 5.8).
 */
@Component
public class AccessWebFilter implements WebFilter, Ordered {

    /** The attribute under which the matched {@link ApiRoute} is kept on the exchange. */
    public static final String ROUTE_ATTRIBUTE = ApiRoute.class.getName();

    private final RouteResolver routes;
    private final ReactiveErrorWriter errors;

    public AccessWebFilter(RouteResolver routes, ReactiveErrorWriter errors) {
        this.routes = routes;
        this.errors = errors;
    }

    @Override
    public int getOrder() {
        return EdgeFilterOrder.AUTHORIZATION;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        EdgePrincipal principal = exchange.getAttribute(EdgePrincipal.ATTRIBUTE);
        if (principal == null) {
            return chain.filter(exchange);
        }
        String path = exchange.getRequest().getPath().pathWithinApplication().value();
        String pathProject = ProjectPaths.projectIdOf(path);
        if (pathProject != null && !pathProject.equals(principal.projectId())) {
            return errors.write(exchange.getResponse(), new NotFound(ErrorMapper.defaultMessage(404)));
        }
        ApiRoute route = routes.resolve(exchange);
        if (route == null) {
            Set<String> allowed = routes.methodsFor(path);
            if (allowed.isEmpty() || allowed.contains("*")) {
                return errors.write(exchange.getResponse(), new NotFound(ErrorMapper.defaultMessage(404)));
            }
            return errors.write(exchange.getResponse(), new ApiException(ErrorCode.METHOD_NOT_ALLOWED, 405,
                    ErrorMapper.defaultMessage(405), null, Map.of(HttpHeaders.ALLOW, String.join(", ", allowed))));
        }
        ApiException refusal = refusal(route, principal);
        if (refusal != null) {
            return errors.write(exchange.getResponse(), refusal);
        }
        exchange.getAttributes().put(ROUTE_ATTRIBUTE, route);
        return chain.filter(exchange);
    }

    /** Why this principal may not call this route (403), or null when it may; the edge fast path asks the same. */
    public static ApiException refusal(ApiRoute route, EdgePrincipal principal) {
        boolean memberRoute = ApiRoute.MEMBER.equals(route.scope());
        if (memberRoute != (principal.kind() == EdgePrincipal.Kind.MEMBER)) {
            // an API key on the account API, or a member token elsewhere: authenticated, not allowed
            return new Forbidden(memberRoute ? "The account API needs a signed-in member's access token"
                    : "This endpoint needs an API key");
        }
        if (memberRoute) {
            return null;
        }
        if (!principal.apiAccess() && !"project-usage".equals(route.id())) {
            return new Forbidden("The project's plan does not include API access (Plus or above)", "plan_without_api_access");
        }
        String scope = route.scope();
        if (scope != null && !ApiRoute.MCP.equals(scope) && !principal.scopes().contains(scope)) {
            return new Forbidden("The API key lacks the scope '" + scope + "' that this endpoint needs", "missing_scope");
        }
        if (route.feature() != null && !principal.features().contains(route.feature())) {
            return new Forbidden("The project does not have the '" + route.feature() + "' feature", "feature_not_enabled");
        }
        return null;
    }
}
