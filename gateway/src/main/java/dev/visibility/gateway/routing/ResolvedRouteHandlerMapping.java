package dev.visibility.gateway.routing;

import java.util.Map;

import org.springframework.cloud.gateway.config.GlobalCorsProperties;
import org.springframework.cloud.gateway.event.RefreshRoutesResultEvent;
import org.springframework.cloud.gateway.handler.FilteringWebHandler;
import org.springframework.cloud.gateway.handler.RoutePredicateHandlerMapping;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.Environment;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Spring Cloud Gateway's handler mapping, with the route of a request found by {@link RouteResolver} and a map
 * by route id instead of a walk over every route (issue 24). The walk ({@code getRoutes().filterWhen(predicate)
 * .next()}) asked each route's predicate in turn, and when one matched it threw away the routes it had already
 * fetched beyond it one by one; without it a proxied request costs the gateway 1-3 % less CPU (two gateways side
 * by side in {@code bench/GatewayOverhead.java}, session 49). Each route's predicate is its resolution
 * ({@link RoutingConfiguration#apiRoutes}), so the route found here is the one the walk would have found.
 *
 * <p>A request no {@link RouteTable} entry resolves (and so any route that is not from the table) still goes
 * through the walk, as before. The map is rebuilt after Spring Cloud Gateway refreshes its routes.
 */
public class ResolvedRouteHandlerMapping extends RoutePredicateHandlerMapping
        implements ApplicationListener<RefreshRoutesResultEvent> {

    private final RouteLocator routeLocator;
    private final RouteResolver resolver;
    private volatile Map<String, Route> routesById;

    public ResolvedRouteHandlerMapping(FilteringWebHandler webHandler, RouteLocator routeLocator,
            GlobalCorsProperties corsProperties, Environment environment, RouteResolver resolver) {
        super(webHandler, routeLocator, corsProperties, environment);
        this.routeLocator = routeLocator;
        this.resolver = resolver;
    }

    @Override
    protected Mono<Route> lookupRoute(ServerWebExchange exchange) {
        ApiRoute resolved = resolver.resolve(exchange);
        if (resolved == null) {
            return super.lookupRoute(exchange);
        }
        Map<String, Route> known = routesById;
        if (known != null) {
            return found(known.get(resolved.id()), exchange);
        }
        return routeLocator.getRoutes().collectMap(Route::getId).flatMap(byId -> {
            routesById = byId;
            return found(byId.get(resolved.id()), exchange);
        });
    }

    private Mono<Route> found(Route route, ServerWebExchange exchange) {
        if (route == null) {
            return super.lookupRoute(exchange);
        }
        exchange.getAttributes().put(ServerWebExchangeUtils.GATEWAY_PREDICATE_ROUTE_ATTR, route.getId());
        validateRoute(route, exchange);
        return Mono.just(route);
    }

    @Override
    public void onApplicationEvent(RefreshRoutesResultEvent event) {
        routesById = null;
    }
}
