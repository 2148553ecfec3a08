package dev.visibility.platform.security.reactive;

import dev.visibility.platform.error.NotFound;
import dev.visibility.platform.error.reactive.ReactiveErrorWriter;
import dev.visibility.platform.security.InternalTokenClaims;
import dev.visibility.platform.security.ProjectPaths;
import org.springframework.security.core.context.ReactiveSecurityContextHolder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Repeats the gateway's project check (DESIGN.md, request path 5): a path project other than the
 * token's project is answered 404, exactly as an unknown resource would be (spec 5.4).
 */
public class ProjectIsolationWebFilter implements WebFilter {

    private final ReactiveErrorWriter writer;

    public ProjectIsolationWebFilter(ReactiveErrorWriter writer) {
        this.writer = writer;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        String pathProject = ProjectPaths.projectIdOf(exchange.getRequest().getPath().pathWithinApplication().value());
        if (pathProject == null) {
            return chain.filter(exchange);
        }
        // a token without a project (account API, gateway calls) reaches no project path
        return ReactiveSecurityContextHolder.getContext()
                .mapNotNull(context -> context.getAuthentication())
                .filter(JwtAuthenticationToken.class::isInstance)
                .mapNotNull(auth -> ((JwtAuthenticationToken) auth).getToken().getClaims().get(InternalTokenClaims.PROJECT))
                .map(String::valueOf)
                .defaultIfEmpty("")
                .flatMap(tokenProject -> tokenProject.equals(pathProject)
                        ? chain.filter(exchange)
                        : writer.write(exchange.getResponse(), new NotFound("No resource exists at this path")));
    }
}
