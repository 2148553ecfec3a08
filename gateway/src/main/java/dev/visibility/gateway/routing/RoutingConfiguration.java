package dev.visibility.gateway.routing;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.gateway.config.GlobalCorsProperties;
import org.springframework.cloud.gateway.handler.FilteringWebHandler;
import org.springframework.cloud.gateway.handler.RoutePredicateHandlerMapping;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.cloud.gateway.support.RouteMetadataUtils;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.web.reactive.accept.ApiVersionStrategy;

/**
 * Builds the Spring Cloud Gateway routes from {@link RouteTable}. A path that no route matches
 * is answered 404 in the error shape by the platform's error handler; a service that does not
 * answer is a 503 {@code unavailable}.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RoutingConfiguration.ServiceLocations.class)
public class RoutingConfiguration {

    public static final String SCOPE = "scope";
    public static final String FEATURE = "feature";
    public static final String METHOD = "method";

    /**
     * One Spring Cloud Gateway route per entry of the table. A route matches when {@link RouteResolver} resolved
     * the request to it (method and path, kept on the exchange by the edge filters that resolved it first)
     * rather than by its own path pattern: the request is matched once, not once more per route in the lookup
     * (issue 24), and two routes on one path (GET and POST {@code /webhooks}) are told apart by method, so each
     * is the {@code routeId} of its own requests in {@code spring.cloud.gateway.requests}.
     */
    @Bean
    RouteLocator apiRoutes(RouteLocatorBuilder builder, ServiceLocations locations, RouteResolver resolver) {
        RouteLocatorBuilder.Builder routes = builder.routes();
        for (ApiRoute route : RouteTable.ROUTES) {
            URI target = locations.uriOf(route.service());
            routes.route(route.id(), spec -> {
                Map<String, Object> metadata = new LinkedHashMap<>();
                metadata.put(METHOD, route.method());
                // the response time-out is timed on the connection's event loop instead (ResponseTimeoutOnLoop)
                metadata.put(RouteMetadataUtils.RESPONSE_TIMEOUT_ATTR, -1);
                if (route.scope() != null) {
                    metadata.put(SCOPE, route.scope());
                }
                if (route.feature() != null) {
                    metadata.put(FEATURE, route.feature());
                }
                return spec.predicate(exchange -> resolver.resolve(exchange) == route).metadata(metadata).uri(target);
            });
        }
        return routes.build();
    }

    /**
     * The handler mapping that finds a request's route by its resolution rather than by asking every route
     * ({@link ResolvedRouteHandlerMapping}); it takes the place of Spring Cloud Gateway's, which is made only when
     * there is none, and is set up as that one is.
     */
    @Bean
    RoutePredicateHandlerMapping routePredicateHandlerMapping(FilteringWebHandler webHandler, RouteLocator routeLocator,
            GlobalCorsProperties corsProperties, Environment environment, RouteResolver resolver,
            ObjectProvider<ApiVersionStrategy> apiVersionStrategy) {
        RoutePredicateHandlerMapping mapping = new ResolvedRouteHandlerMapping(webHandler, routeLocator, corsProperties,
                environment, resolver);
        apiVersionStrategy.ifAvailable(mapping::setApiVersionStrategy);
        return mapping;
    }

    /** Where each service listens: {@code suite.services.<name>=<base URI>}. */
    @ConfigurationProperties("suite")
    public record ServiceLocations(Map<String, URI> services) {

        public URI uriOf(String service) {
            URI uri = services == null ? null : services.get(service);
            if (uri == null) {
                throw new IllegalStateException("No location configured for " + service + " (suite.services." + service + ")");
            }
            // refused at start: such a location would fail every request of the service's routes with a 500
            // (two values given for one service are joined with a comma, which leaves a URI without a host)
            if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
                throw new IllegalStateException("The location of " + service + " (suite.services." + service + "=" + uri
                        + ") is not an http or https URL with a host, such as http://host:port");
            }
            return uri;
        }
    }
}
