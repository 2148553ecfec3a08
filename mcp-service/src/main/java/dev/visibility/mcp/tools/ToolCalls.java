package dev.visibility.mcp.tools;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;

import dev.visibility.platform.security.Caller;
import dev.visibility.platform.security.reactive.CurrentCaller;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs a tool call: checks the caller's scope or capability (a missing one is a tool error
 * naming it, DESIGN.md), calls the tool's REST endpoint with the caller's internal token, and
 * answers the REST body as {@code structuredContent} (parsed once, written as it came:
 * {@link StructuredBody}) with the same JSON as a text block. A REST
 * refusal (400 naming a parameter, 403, 404, ...) is a tool error carrying the REST error body; a
 * service that does not answer in time is a tool error saying so.
 */
public class ToolCalls {

    /** The transport context's entry with the request's {@code Authorization} header (the internal token). */
    public static final String AUTHORIZATION = "authorization";

    private static final Logger log = LoggerFactory.getLogger(ToolCalls.class);

    /**
     * Reads the services' answers: a plain mapper, since the answers are our own services' JSON,
     * not a client's input (the application's mapper checks every string of a tree for control
     * characters, which costs a walk over the whole answer).
     */
    private static final JsonMapper ANSWERS = JsonMapper.shared();

    private final ServiceClient services;
    private final ObjectMapper mapper;

    public ToolCalls(ServiceClient services, ObjectMapper mapper) {
        this.services = services;
        this.mapper = mapper;
    }

    public Mono<CallToolResult> call(ToolDefinition tool, McpTransportContext context, McpSchema.CallToolRequest request) {
        Object bearer = context.get(AUTHORIZATION);
        if (!(bearer instanceof String token)) {
            return Mono.just(error("This call carries no credential"));
        }
        return CurrentCaller.get().flatMap(caller -> call(tool, caller, token,
                request.arguments() == null ? Map.of() : request.arguments()));
    }

    private Mono<CallToolResult> call(ToolDefinition tool, Caller caller, String bearer, Map<String, Object> arguments) {
        String missing = Access.missing(tool, caller);
        if (missing != null) {
            return Mono.just(error(missing));
        }
        Map<String, Object> path = new LinkedHashMap<>();
        Map<String, Object> query = new LinkedHashMap<>();
        Map<String, Object> body = tool.method().equals("PATCH") ? new LinkedHashMap<>() : null;
        for (ToolParam param : tool.params()) {
            if (!arguments.containsKey(param.name())) {
                continue;
            }
            Object value = arguments.get(param.name());
            switch (param.where()) {
                case PATH -> path.put(param.name(), value);
                case QUERY -> {
                    if (value != null) {
                        query.put(param.name(), value);
                    }
                }
                case BODY -> body.put(param.name(), value);
            }
        }
        String json = body == null ? null : mapper.writeValueAsString(body);
        return services.call(tool.service(), tool.method(), caller.projectId(), tool.path(), path, query, json, bearer)
                .map(answer -> result(tool, answer))
                .onErrorResume(failure -> Mono.just(unavailable(tool, failure)));
    }

    private CallToolResult result(ToolDefinition tool, ServiceClient.Answer answer) {
        if (answer.status() >= 200 && answer.status() < 300) {
            try {
                JsonNode tree = ANSWERS.readTree(answer.body());
                if (tree.isObject()) {
                    return CallToolResult.builder()
                            .content(List.of(McpSchema.TextContent.builder(answer.body()).build()))
                            .structuredContent(new StructuredBody(answer.body(), tree))
                            .isError(false)
                            .build();
                }
            } catch (JacksonException e) {
                // said below
            }
            log.warn("{} answered {} with a body that is not a JSON object", tool.service(), answer.status());
            return error(tool.name() + " failed: " + tool.service() + " answered an unreadable body");
        }
        // the REST error body ({error, message, status[, reason]}) as the tool error's text
        return error(tool.name() + " failed with HTTP " + answer.status() + ": " + answer.body());
    }

    private static CallToolResult unavailable(ToolDefinition tool, Throwable failure) {
        if (failure instanceof TimeoutException || failure.getCause() instanceof TimeoutException) {
            return error(tool.name() + " failed: " + tool.service() + " did not answer in time; try again");
        }
        log.warn("{} could not reach {}: {}", tool.name(), tool.service(), failure.toString());
        return error(tool.name() + " failed: " + tool.service() + " is unavailable; try again");
    }

    static CallToolResult error(String text) {
        return CallToolResult.builder()
                .content(List.of(McpSchema.TextContent.builder(text).build()))
                .isError(true)
                .build();
    }
}
