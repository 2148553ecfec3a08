package dev.visibility.gateway.routing;

import dev.visibility.gateway.auth.CredentialCache;
import dev.visibility.gateway.auth.EdgeAuthProperties;
import dev.visibility.gateway.ratelimit.RateLimitWebFilter;
import dev.visibility.gateway.relay.InternalTokenRelayFilter;
import dev.visibility.platform.error.reactive.ReactiveErrorWriter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.netty.http.client.HttpClient;

/**
 * The edge's fast path ({@link EdgeFastPath}) as a route of the gateway's own server, ahead of the route to Spring's
 * handler that takes every request it does not admit. Only the public server's factory is customised: the
 * management server (its own context and port) has no such route. {@code suite.gateway.fast-path=false} leaves it out.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "suite.gateway.fast-path", havingValue = "true", matchIfMissing = true)
class EdgeFastPathConfiguration {

    @Bean
    EdgeFastPath edgeFastPath(EdgeAuthProperties properties, CredentialCache cache, RouteResolver routes,
            RoutingConfiguration.ServiceLocations locations, RateLimitWebFilter rateLimit, InternalTokenRelayFilter relay,
            RouteRequestTimer routeTimer, ReactiveErrorWriter errors, HttpClient client, ObjectProvider<Tracer> tracer,
            ObjectProvider<Propagator> propagator, MeterRegistry meters) {
        // traces as the full way hands them on: only when the suite propagates them (InternalTokenRelayFilter)
        Tracer tracing = propagator.getIfUnique(() -> Propagator.NOOP) == Propagator.NOOP ? Tracer.NOOP
                : tracer.getIfUnique(() -> Tracer.NOOP);
        return new EdgeFastPath(properties.keyPrefix(), cache, routes, locations, rateLimit, relay, routeTimer, errors,
                client, tracing, meters);
    }

    @Bean
    WebServerFactoryCustomizer<NettyReactiveWebServerFactory> edgeFastPathRoute(EdgeFastPath fastPath) {
        return factory -> factory.addRouteProviders(routes -> routes.route(fastPath, fastPath));
    }
}
