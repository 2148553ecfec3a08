package dev.visibility.gateway.openapi;

import java.time.Clock;

import dev.visibility.gateway.routing.RouteResolver;
import dev.visibility.gateway.routing.RouteTable;
import dev.visibility.gateway.routing.RoutingConfiguration.ServiceLocations;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code GET /api/v2/openapi.json}: the merged OpenAPI 3.1 document, answered by the gateway itself
 * (not a proxied route) and without a key ({@code AuthenticationWebFilter} lets this one path through).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(OpenApiProperties.class)
public class OpenApiConfiguration {

    @Bean
    OpenApiDocument openApiDocument(ServiceLocations locations, RouteResolver routes, JsonMapper mapper,
            OpenApiProperties properties) {
        return new OpenApiDocument(locations, new OpenApiMerger(mapper, routes), mapper, properties, Clock.systemUTC());
    }

    /**
     * Builds the document {@code suite.openapi.warm-up-after} after the gateway is ready (after the
     * services' start, not during it), so that the first caller does not wait for nine services to
     * write theirs.
     */
    @Bean
    OpenApiWarmUp openApiWarmUp(OpenApiDocument document, OpenApiProperties properties) {
        return new OpenApiWarmUp(document, properties);
    }

    /** Starts the warm-up when the gateway is ready; stops it when the context closes. */
    static final class OpenApiWarmUp implements ApplicationListener<ApplicationReadyEvent>, DisposableBean {

        private final OpenApiDocument document;
        private final OpenApiProperties properties;
        private volatile Disposable running = Disposables.disposed();

        OpenApiWarmUp(OpenApiDocument document, OpenApiProperties properties) {
            this.document = document;
            this.properties = properties;
        }

        @Override
        public void onApplicationEvent(ApplicationReadyEvent ready) {
            if (properties.warmUpAttempts() > 0) {
                running = Mono.delay(properties.warmUpAfter())
                        .then(document.warmUp(properties.warmUpAttempts()))
                        .subscribe();
            }
        }

        @Override
        public void destroy() {
            running.dispose();
        }
    }

    @Bean
    RouterFunction<ServerResponse> openApiRoute(OpenApiDocument document, OpenApiProperties properties, JsonMapper mapper) {
        return RouterFunctions.route()
                .GET(RouteTable.OPENAPI_DOCUMENT, request -> document.document().flatMap(merged -> {
                    ObjectNode answer = mapper.createObjectNode();
                    answer.setAll(merged);
                    String origin = properties.serverUrl() != null ? properties.serverUrl().toString().replaceAll("/+$", "")
                            : origin(request.exchange().getRequest());
                    answer.putArray("servers").addObject().put("url", origin);
                    return ServerResponse.ok()
                            .contentType(MediaType.APPLICATION_JSON)
                            .cacheControl(CacheControl.noCache())
                            .bodyValue(mapper.writeValueAsBytes(answer));
                }))
                .build();
    }

    private static String origin(ServerHttpRequest request) {
        var uri = request.getURI();
        return uri.getScheme() + "://" + uri.getRawAuthority();
    }
}
