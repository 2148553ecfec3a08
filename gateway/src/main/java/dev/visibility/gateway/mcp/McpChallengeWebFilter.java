package dev.visibility.gateway.mcp;

import java.net.URI;

import dev.visibility.gateway.EdgeFilterOrder;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * A 401 on {@code /api/mcp} tells an MCP client where to sign in (DESIGN.md "MCP and OAuth",
 * RFC 9728 section 5.1): {@code WWW-Authenticate: Bearer resource_metadata="<metadata URL>"}, the
 * URL of {@code GET /.well-known/oauth-protected-resource/api/mcp}, which mcp-service answers
 * without a credential. Whoever makes the 401 (the authentication filter, the OAuth token check),
 * the header is added as the answer is committed. The origin is {@code suite.mcp.public-origin}
 * when set (behind a proxy that terminates TLS), else the request's own.
 */
@Component
public class McpChallengeWebFilter implements WebFilter, Ordered {

    public static final String MCP_PATH = "/api/mcp";
    public static final String METADATA_PATH = "/.well-known/oauth-protected-resource/api/mcp";

    private final String publicOrigin;

    public McpChallengeWebFilter(@Value("${suite.mcp.public-origin:}") String publicOrigin) {
        this.publicOrigin = publicOrigin == null || publicOrigin.isBlank() ? null
                : publicOrigin.endsWith("/") ? publicOrigin.substring(0, publicOrigin.length() - 1) : publicOrigin;
    }

    @Override
    public int getOrder() {
        // before authentication, so that every 401 of this path is seen
        return EdgeFilterOrder.AUTHENTICATION - 5;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (!MCP_PATH.equals(exchange.getRequest().getPath().pathWithinApplication().value())) {
            return chain.filter(exchange);
        }
        ServerHttpResponse response = exchange.getResponse();
        String challenge = "Bearer resource_metadata=\"" + origin(exchange.getRequest().getURI()) + METADATA_PATH + "\"";
        response.beforeCommit(() -> {
            if (HttpStatus.UNAUTHORIZED.equals(response.getStatusCode())) {
                response.getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, challenge);
            }
            return Mono.empty();
        });
        return chain.filter(exchange);
    }

    /** The public origin, {@code scheme://host[:port]}. */
    public String origin(URI request) {
        if (publicOrigin != null) {
            return publicOrigin;
        }
        String host = request.getHost() == null ? "localhost" : request.getHost();
        if (host.indexOf(':') >= 0) {
            host = "[" + host + "]";
        }
        return request.getScheme() + "://" + host + (request.getPort() < 0 ? "" : ":" + request.getPort());
    }
}
