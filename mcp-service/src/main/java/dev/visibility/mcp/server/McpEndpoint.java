package dev.visibility.mcp.server;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import dev.visibility.platform.error.ApiException;
import dev.visibility.platform.error.ErrorCode;
import dev.visibility.platform.error.InvalidRequest;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import org.springframework.ai.mcp.server.webflux.transport.WebFluxStatelessServerTransport;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * {@code /api/mcp} (Streamable HTTP, MCP 2025-11-25): what the SDK's transport would refuse with
 * an empty or non-standard body is refused here first in the suite's error shape (spec 7), then
 * the request goes to the transport unchanged. A POST must accept both {@code application/json}
 * and {@code text/event-stream} (406 otherwise), send {@code application/json} (415), name a
 * supported {@code MCP-Protocol-Version} if it names one (400) and carry one JSON-RPC request or
 * notification (400). The server is stateless and offers no stream: GET and DELETE are 405 with
 * {@code Allow: POST}, as the Streamable HTTP transport specifies for a server without them.
 */
final class McpEndpoint {

    static final String PROTOCOL_VERSION_HEADER = "MCP-Protocol-Version";

    private final WebFluxStatelessServerTransport transport;
    private final McpJsonMapper mapper;
    private final List<String> versions;

    McpEndpoint(WebFluxStatelessServerTransport transport, McpJsonMapper mapper) {
        this.transport = transport;
        this.mapper = mapper;
        this.versions = transport.protocolVersions();
    }

    RouterFunction<ServerResponse> routes() {
        return RouterFunctions.route(RequestPredicates.POST(McpServerConfiguration.ENDPOINT), this::post)
                .andRoute(RequestPredicates.path(McpServerConfiguration.ENDPOINT), request -> Mono.error(
                        new ApiException(ErrorCode.METHOD_NOT_ALLOWED, 405,
                                "The MCP endpoint takes POST only: this server is stateless and offers no event stream",
                                null, Map.of(HttpHeaders.ALLOW, "POST"))));
    }

    private Mono<ServerResponse> post(ServerRequest request) {
        HttpHeaders headers = request.headers().asHttpHeaders();
        List<MediaType> accept = headers.getAccept();
        if (!accepts(accept, MediaType.APPLICATION_JSON) || !accepts(accept, MediaType.TEXT_EVENT_STREAM)) {
            return Mono.error(new ApiException(ErrorCode.NOT_ACCEPTABLE, 406,
                    "The Accept header must list both application/json and text/event-stream", null, Map.of()));
        }
        MediaType contentType = headers.getContentType();
        if (contentType == null || !MediaType.APPLICATION_JSON.equalsTypeAndSubtype(contentType)) {
            return Mono.error(new ApiException(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 415,
                    "The body must be application/json", null, Map.of()));
        }
        String version = headers.getFirst(PROTOCOL_VERSION_HEADER);
        if (version != null && !versions.contains(version)) {
            return Mono.error(new InvalidRequest("Header '" + PROTOCOL_VERSION_HEADER + "' names a protocol version "
                    + "this server does not support; supported: " + String.join(", ", versions)));
        }
        return request.bodyToMono(String.class)
                .switchIfEmpty(Mono.error(() -> new InvalidRequest("The body must be one JSON-RPC 2.0 request or notification")))
                .flatMap(body -> {
                    McpSchema.JSONRPCMessage message;
                    try {
                        message = McpSchema.deserializeJsonRpcMessage(mapper, body);
                    } catch (IOException | IllegalArgumentException | ClassCastException e) {
                        return Mono.error(new InvalidRequest("The body must be one JSON-RPC 2.0 request or notification"));
                    }
                    if (message instanceof McpSchema.JSONRPCResponse) {
                        return Mono.error(new InvalidRequest(
                                "This server sends no requests, so it takes no JSON-RPC responses"));
                    }
                    ServerRequest copy = ServerRequest.from(request).body(body).build();
                    return delegate(copy);
                });
    }

    @SuppressWarnings("unchecked")
    private Mono<ServerResponse> delegate(ServerRequest request) {
        RouterFunction<ServerResponse> router = (RouterFunction<ServerResponse>) transport.getRouterFunction();
        return router.route(request)
                .switchIfEmpty(Mono.error(() -> new IllegalStateException("the MCP transport has no route for POST")))
                .flatMap((HandlerFunction<ServerResponse> handler) -> handler.handle(request));
    }

    private static boolean accepts(List<MediaType> accept, MediaType type) {
        return accept.stream().anyMatch(listed -> listed.equalsTypeAndSubtype(type));
    }
}
