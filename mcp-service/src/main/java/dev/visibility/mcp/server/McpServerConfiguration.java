package dev.visibility.mcp.server;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.visibility.mcp.tools.ServiceClient;
import dev.visibility.mcp.tools.ToolCalls;
import dev.visibility.mcp.tools.ToolCatalog;
import dev.visibility.mcp.tools.ToolDefinition;
import dev.visibility.platform.error.reactive.ReactiveErrorWriter;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.json.schema.jackson3.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpStatelessAsyncServer;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import org.springframework.ai.mcp.server.webflux.transport.WebFluxStatelessServerTransport;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The MCP server (spec E18, DESIGN.md "MCP and OAuth"): the MCP Java SDK's stateless server on
 * the WebFlux Streamable HTTP transport at {@code /api/mcp}, behind the platform's security (only
 * the gateway's internal token gets in). Stateless: every POST carries everything it needs (the
 * gateway authenticates it again and mints the caller's internal token), so any replica answers
 * any request and a revoked key is refused at the gateway on its next request (README).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({McpProperties.class, McpProperties.ServiceLocations.class})
public class McpServerConfiguration {

    public static final String ENDPOINT = "/api/mcp";

    @Bean
    McpJsonMapper mcpJsonMapper() {
        return new JacksonMcpJsonMapper(JsonMapper.builder().build());
    }

    @Bean
    WebFluxStatelessServerTransport mcpTransport(McpJsonMapper mcpJsonMapper) {
        return WebFluxStatelessServerTransport.builder()
                .jsonMapper(mcpJsonMapper)
                .messageEndpoint(ENDPOINT)
                // the tools call the services with the caller's internal token, as the gateway relayed it
                .contextExtractor(request -> McpTransportContext.create(java.util.Map.of(ToolCalls.AUTHORIZATION,
                        String.valueOf(request.headers().firstHeader(HttpHeaders.AUTHORIZATION)))))
                .build();
    }

    @Bean
    ServiceClient serviceClient(McpProperties properties, McpProperties.ServiceLocations locations) {
        return new ServiceClient(properties, locations);
    }

    @Bean
    ToolCalls toolCalls(ServiceClient services, ObjectMapper mapper) {
        return new ToolCalls(services, mapper);
    }

    @Bean(destroyMethod = "close")
    McpStatelessAsyncServer mcpServer(WebFluxStatelessServerTransport transport, McpJsonMapper mcpJsonMapper,
            ToolCalls calls, McpProperties properties) {
        // each tool described once: the SDK keeps these instances, and ToolSchemas finds the
        // compiled schemas by them
        Map<ToolDefinition, McpSchema.Tool> described = new LinkedHashMap<>();
        ToolCatalog.TOOLS.forEach(tool -> described.put(tool, tool.tool()));
        List<McpStatelessServerFeatures.AsyncToolSpecification> tools = described.entrySet().stream()
                .map(entry -> spec(entry.getKey(), entry.getValue(), calls))
                .toList();
        return McpServer.async(transport)
                .jsonMapper(mcpJsonMapper)
                .serverInfo("visibility-suite", "2.0.0")
                .instructions("Tools over one project's AI-search visibility data: the same data and rules as the "
                        + "REST API /api/v2. Every tool acts on the project of the API key or of the connection.")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .requestTimeout(properties.callTimeout().plusSeconds(5))
                .jsonSchemaValidator(new ToolSchemas(List.copyOf(described.values()),
                        new DefaultJsonSchemaValidator()))
                .tools(tools)
                .build();
    }

    private static McpStatelessServerFeatures.AsyncToolSpecification spec(ToolDefinition tool, McpSchema.Tool described,
            ToolCalls calls) {
        return McpStatelessServerFeatures.AsyncToolSpecification.builder()
                .tool(described)
                .callHandler((context, request) -> calls.call(tool, context, request))
                .build();
    }

    @Bean
    RouterFunction<ServerResponse> mcpRoutes(WebFluxStatelessServerTransport transport, McpJsonMapper mcpJsonMapper,
            ReactiveErrorWriter errors, McpStatelessAsyncServer server) {
        return new McpEndpoint(transport, mcpJsonMapper).routes();
    }
}
