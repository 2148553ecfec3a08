package dev.visibility.gateway.routing;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.springframework.http.server.PathContainer;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/** Finds the {@link ApiRoute} of a request in {@link RouteTable}, by path pattern and method. */
@Component
public class RouteResolver {

    /** The attribute under which a request's resolution is kept, so that each request is resolved once. */
    private static final String RESOLVED = RouteResolver.class.getName() + ".resolved";

    private final List<Compiled> routes = new ArrayList<>();

    public RouteResolver() {
        PathPatternParser parser = new PathPatternParser();
        for (ApiRoute route : RouteTable.ROUTES) {
            // a pattern without a multi-segment wildcard matches only paths of as many segments (issue 24:
            // most routes are ruled out by counting, before any pattern is matched)
            int separators = route.path().contains("**") || route.path().contains("{*") ? -1 : separators(route.path());
            routes.add(new Compiled(route, parser.parse(route.path()), separators));
        }
    }

    /**
     * The route of this request (its method and decoded path), or null. The answer is kept on the
     * exchange: the filters that need it (authentication, access) resolve each request once, and
     * again only if the method or path changed in between.
     */
    public ApiRoute resolve(ServerWebExchange exchange) {
        ServerHttpRequest request = exchange.getRequest();
        String method = request.getMethod().name();
        String path = request.getPath().pathWithinApplication().value();
        if (exchange.getAttributes().get(RESOLVED) instanceof Resolved resolved && resolved.method().equals(method)
                && resolved.path().equals(path)) {
            return resolved.route();
        }
        ApiRoute route = resolve(method, path);
        exchange.getAttributes().put(RESOLVED, new Resolved(method, path, route));
        return route;
    }

    /** The route for this method and path, or null. */
    public ApiRoute resolve(String method, String path) {
        PathContainer container = PathContainer.parsePath(path);
        int separators = separators(path);
        for (Compiled compiled : routes) {
            if (compiled.couldMatch(separators) && compiled.pattern().matches(container) && compiled.allows(method)) {
                return compiled.route();
            }
        }
        return null;
    }

    private static int separators(String path) {
        int count = 0;
        for (int i = 0; i < path.length(); i++) {
            if (path.charAt(i) == '/') {
                count++;
            }
        }
        return count;
    }

    /** The methods some route accepts on this path (empty when the path is unknown). */
    public Set<String> methodsFor(String path) {
        PathContainer container = PathContainer.parsePath(path);
        Set<String> methods = new LinkedHashSet<>();
        for (Compiled compiled : routes) {
            if (compiled.pattern().matches(container)) {
                methods.add(compiled.route().method());
            }
        }
        return methods;
    }

    private record Resolved(String method, String path, ApiRoute route) {
    }

    private record Compiled(ApiRoute route, PathPattern pattern, int separators) {

        boolean couldMatch(int pathSeparators) {
            return separators < 0 || separators == pathSeparators;
        }

        boolean allows(String method) {
            return route.method().equals("*") || route.method().equals(method)
                    || (method.equals("HEAD") && route.method().equals("GET"));
        }
    }
}
