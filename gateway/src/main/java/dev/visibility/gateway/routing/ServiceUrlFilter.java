package dev.visibility.gateway.routing;

import java.net.URI;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.filter.RouteToRequestUrlFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The URL a request is forwarded to: its service's scheme, host and port ({@link RoutingConfiguration.ServiceLocations})
 * with the request's path and query exactly as the caller encoded them (the edge filters checked that spelling:
 * the platform's {@code CanonicalPathWebFilter} refuses any other). It stands in for Spring Cloud Gateway's
 * {@code RouteToRequestUrlFilter} ({@code global-filter.route-to-request-url.enabled: false}), which matched a regular
 * expression against the route's URI and built the URL through {@code UriComponentsBuilder}, quoting and parsing it
 * twice, for every request (issue 24: 2 % of the gateway's CPU samples). Every route of {@link RouteTable} has a plain
 * {@code http} or {@code https} service URI, so the URL is the two strings joined and parsed once.
 */
@Component
public class ServiceUrlFilter implements GlobalFilter, Ordered {

    @Override
    public int getOrder() {
        return RouteToRequestUrlFilter.ROUTE_TO_URL_FILTER_ORDER;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        Route route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
        if (route != null) {
            exchange.getAttributes().put(ServerWebExchangeUtils.GATEWAY_REQUEST_URL_ATTR,
                    serviceUrl(route.getUri(), exchange.getRequest().getURI()));
        }
        return chain.filter(exchange);
    }

    /** The service's origin with the request's raw path and query. */
    static URI serviceUrl(URI service, URI request) {
        StringBuilder url = new StringBuilder(96).append(service.getScheme()).append("://").append(service.getHost());
        if (service.getPort() != -1) {
            url.append(':').append(service.getPort());
        }
        String path = request.getRawPath();
        url.append(path == null || path.isEmpty() ? "/" : path);
        if (request.getRawQuery() != null) {
            url.append('?').append(request.getRawQuery());
        }
        return URI.create(url.toString());
    }
}
