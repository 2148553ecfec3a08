package dev.visibility.platform.security.reactive;

import dev.visibility.platform.error.InvalidRequest;
import dev.visibility.platform.error.reactive.ReactiveErrorWriter;
import dev.visibility.platform.security.ProjectPaths;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Refuses, before anything else sees the request (authentication, the security chain, routing),
 * a path that is not in canonical form ({@link ProjectPaths#nonCanonical(String)}): 400 in the
 * error shape. The gateway and every WebFlux service run it, so that no spelling of a path can
 * reach a handler that a check on another spelling let through.
 */
public class CanonicalPathWebFilter implements WebFilter, Ordered {

    private final ReactiveErrorWriter writer;

    public CanonicalPathWebFilter(ReactiveErrorWriter writer) {
        this.writer = writer;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        String problem = ProjectPaths.nonCanonical(exchange.getRequest().getPath().value());
        if (problem != null) {
            return writer.write(exchange.getResponse(), new InvalidRequest(problem, "non_canonical_path"));
        }
        return chain.filter(exchange);
    }
}
