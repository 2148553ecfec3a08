package dev.visibility.platform.openapi;

import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * springdoc builds a WebFlux service's document synchronously in its handler, the first time by
 * reading classes and resources from the jars: that blocks. This filter runs the handling of
 * {@code /v3/api-docs} on the bounded-elastic scheduler, never on a Netty event loop.
 */
public class OpenApiOffEventLoopWebFilter implements WebFilter, Ordered {

    static final String PATH = "/v3/api-docs";

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 10;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        String path = exchange.getRequest().getPath().pathWithinApplication().value();
        if (path.equals(PATH) || path.startsWith(PATH + "/")) {
            return chain.filter(exchange).subscribeOn(Schedulers.boundedElastic());
        }
        return chain.filter(exchange);
    }
}
