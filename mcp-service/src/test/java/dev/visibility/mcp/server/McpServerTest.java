package dev.visibility.mcp.server;

import static dev.visibility.platform.testing.JsonShapes.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import dev.visibility.mcp.tools.ToolCatalog;
import dev.visibility.platform.security.Caller;
import dev.visibility.platform.testing.Http;
import dev.visibility.platform.testing.TestTokens;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The MCP server of spec E18 with the MCP Java SDK's own client against the real server (Streamable
 * HTTP, stateless) and the platform's security: initialize, the tool list of DESIGN.md with its
 * schemas and hints, scope and capability errors as tool errors (spec 5.7, 5.10), input
 * validation, and the HTTP refusals in the error shape (spec 7). The services the tools read are
 * not running in this test (their port has no listener): a call that passes the access check is
 * answered as a tool error naming the unavailable service. Calls with data go through the gateway
 * to the real services in system-tests ({@code McpSystemTest}).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "suite.services.auth-service=http://127.0.0.1:1",
        "suite.services.actions-service=http://127.0.0.1:1",
        "suite.services.visibility-service=http://127.0.0.1:1",
        "suite.services.outcomes-service=http://127.0.0.1:1",
        "suite.services.traffic-service=http://127.0.0.1:1",
        "suite.services.agents-service=http://127.0.0.1:1",
        "suite.services.webhook-service=http://127.0.0.1:1",
        "suite.mcp.public-origin=https://api.example.test"})
class McpServerTest {

    private static final String PROJECT = "7c1f0e4a-3b2d-4e5f-8a9b-0c1d2e3f4a5b";

    /** DESIGN.md "MCP and OAuth": the tools it names; this server adds three more read endpoints. */
    private static final Set<String> DESIGN_TOOLS = Set.of("service_get_actions", "service_get_action_brief",
            "service_get_action_events", "service_get_project_usage", "service_get_visibility_summary",
            "service_get_retained_response", "service_get_agent_picks_run", "service_get_outcomes_ledger",
            "service_get_what_works", "service_get_traffic_summary", "service_get_adoption_metrics",
            "service_get_404_demand", "service_get_agent_run", "service_list_handoffs", "service_list_webhooks",
            "service_update_action", "service_delete_thread");
    private static final Set<String> WRITE_TOOLS = Set.of("service_update_action", "service_delete_thread");

    @LocalServerPort
    int port;

    private WebTestClient http;
    private McpSyncClient client;

    @BeforeEach
    void setUp() {
        http = Http.client(port);
    }

    @AfterEach
    void closeClient() {
        if (client != null) {
            client.closeGracefully();
        }
    }

    private McpSyncClient connect(String token) {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
                .builder("http://127.0.0.1:" + port)
                .endpoint("/api/mcp")
                .httpRequestCustomizer((builder, method, uri, body, context) ->
                        builder.header(HttpHeaders.AUTHORIZATION, TestTokens.bearer(token)))
                .build();
        client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30)).build();
        client.initialize();
        return client;
    }

    private static String keyToken(String... scopes) {
        return TestTokens.forProject(PROJECT, scopes);
    }

    private static McpSchema.CallToolResult call(McpSyncClient client, String tool, Map<String, Object> arguments) {
        return client.callTool(new McpSchema.CallToolRequest(tool, arguments));
    }

    private static String text(McpSchema.CallToolResult result) {
        return result.content().stream().map(c -> ((McpSchema.TextContent) c).text()).collect(Collectors.joining("\n"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object value) {
        return (List<Object>) value;
    }

    @Test
    void initializeNegotiates2025_11_25AndEarlierVersions() {
        McpSyncClient mcp = connect(keyToken("actions.read"));
        McpSchema.InitializeResult result = mcp.getCurrentInitializationResult();
        assertThat(result.protocolVersion()).isEqualTo("2025-11-25");
        assertThat(result.serverInfo().name()).isEqualTo("visibility-suite");
        assertThat(result.capabilities().tools()).isNotNull();

        // an earlier client version is answered with itself (Streamable HTTP exists since 2025-03-26)
        Map<String, Object> older = Http.json(http.post().uri("/api/mcp")
                .header(HttpHeaders.AUTHORIZATION, TestTokens.bearer(keyToken()))
                .header(HttpHeaders.ACCEPT, "application/json, text/event-stream")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("jsonrpc", "2.0", "id", 1, "method", "initialize", "params", Map.of(
                        "protocolVersion", "2025-03-26", "capabilities", Map.of(),
                        "clientInfo", Map.of("name", "test", "version", "1")))), 200);
        assertThat(((Map<?, ?>) older.get("result")).get("protocolVersion")).isEqualTo("2025-03-26");
    }

    @Test
    void listsEveryToolWithInputAndOutputSchemaAndHints() {
        List<McpSchema.Tool> tools = connect(keyToken()).listTools().tools();
        Set<String> names = tools.stream().map(McpSchema.Tool::name).collect(Collectors.toSet());
        assertThat(names).containsAll(DESIGN_TOOLS)
                .containsExactlyInAnyOrderElementsOf(ToolCatalog.TOOLS.stream().map(t -> t.name()).toList());
        for (McpSchema.Tool tool : tools) {
            assertThat(tool.inputSchema()).as(tool.name()).containsEntry("type", "object");
            assertThat(tool.outputSchema()).as(tool.name()).containsEntry("type", "object");
            assertThat(list(tool.outputSchema().get("required"))).as(tool.name()).contains("data");
            assertThat(tool.annotations().readOnlyHint()).as(tool.name()).isEqualTo(!WRITE_TOOLS.contains(tool.name()));
        }
        McpSchema.Tool actions = tools.stream().filter(t -> t.name().equals("service_get_actions")).findFirst().orElseThrow();
        // spec E18: service_get_actions takes detailLevel; it pages as E3 does (page, pageSize 1-100)
        Map<String, Object> properties = map(actions.inputSchema().get("properties"));
        assertThat(properties.keySet()).containsExactlyInAnyOrder("detailLevel", "status", "page", "pageSize");
        assertThat(map(properties.get("detailLevel"))).containsEntry("enum", List.of("summary", "context"));
        assertThat(map(properties.get("pageSize"))).containsEntry("minimum", 1).containsEntry("maximum", 100);
        McpSchema.Tool brief = tools.stream().filter(t -> t.name().equals("service_get_action_brief")).findFirst().orElseThrow();
        assertThat(list(brief.inputSchema().get("required"))).containsExactly("actionId");
    }

    @Test
    void aKeyWithoutTheEndpointsScopeGetsAToolErrorNamingIt() {
        McpSyncClient mcp = connect(keyToken("visibility.read"));
        McpSchema.CallToolResult result = call(mcp, "service_get_actions", Map.of("detailLevel", "summary"));
        assertThat(result.isError()).isTrue();
        assertThat(text(result)).contains("actions.read").contains("service_get_actions");

        McpSchema.CallToolResult delete = call(mcp, "service_delete_thread",
                Map.of("threadId", "3f0e9d1c-2b4a-4c5d-8e6f-7a8b9c0d1e2f"));
        assertThat(delete.isError()).isTrue();
        assertThat(text(delete)).contains("agents.run");
    }

    @Test
    void anOAuthConnectionWithoutTheCapabilityGetsAToolErrorNamingTheCapability() {
        // what the gateway mints for an OAuth connection approved for read tools only
        String token = TestTokens.mint(new Caller(TestTokens.ACCOUNT, PROJECT, null, "client-1", "member-1",
                Set.of("actions.read", "visibility.read"), Set.of()));
        McpSyncClient mcp = connect(token);
        McpSchema.CallToolResult result = call(mcp, "service_update_action",
                Map.of("actionId", "3f0e9d1c-2b4a-4c5d-8e6f-7a8b9c0d1e2f", "status", "accepted"));
        assertThat(result.isError()).isTrue();
        assertThat(text(result)).contains("capability 'write'").doesNotContain("actions.write");
    }

    @Test
    void theUsageToolNeedsNoScopeAndAnUnavailableServiceIsAToolError() {
        McpSyncClient mcp = connect(keyToken());
        McpSchema.CallToolResult usage = call(mcp, "service_get_project_usage", Map.of());
        // spec 5.7: no scope check; the call reached for auth-service, which is not running here
        assertThat(usage.isError()).isTrue();
        assertThat(text(usage)).contains("auth-service is unavailable").doesNotContain("scope");
    }

    @Test
    void inputsOutsideTheSchemaAreToolErrors() {
        McpSyncClient mcp = connect(keyToken("actions.read"));
        McpSchema.CallToolResult tooBig = call(mcp, "service_get_actions", Map.of("pageSize", 101));
        assertThat(tooBig.isError()).isTrue();
        assertThat(text(tooBig)).contains("pageSize");
        McpSchema.CallToolResult notUuid = call(mcp, "service_get_action_brief", Map.of("actionId", "../../webhooks"));
        assertThat(notUuid.isError()).isTrue();
        assertThat(text(notUuid)).contains("actionId");
        McpSchema.CallToolResult unknown = call(mcp, "service_get_actions", Map.of("sort", "x"));
        assertThat(unknown.isError()).isTrue();
    }

    @Test
    void httpRefusalsAnswerInTheErrorShape() {
        String bearer = TestTokens.bearer(keyToken());
        String initialize = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
        // no internal token: 401 (the gateway adds WWW-Authenticate for callers)
        assertError(Http.error(http.post().uri("/api/mcp").contentType(MediaType.APPLICATION_JSON).bodyValue(initialize), 401),
                401, "unauthorized");
        // stateless, no event stream: GET and DELETE are 405 with Allow: POST
        http.get().uri("/api/mcp").header(HttpHeaders.AUTHORIZATION, bearer).exchange()
                .expectStatus().isEqualTo(405).expectHeader().valueEquals(HttpHeaders.ALLOW, "POST")
                .expectBody().jsonPath("$.error").isEqualTo("method_not_allowed");
        assertError(Http.error(http.delete().uri("/api/mcp").header(HttpHeaders.AUTHORIZATION, bearer), 405), 405);
        assertError(Http.error(http.post().uri("/api/mcp").header(HttpHeaders.AUTHORIZATION, bearer)
                .header(HttpHeaders.ACCEPT, "application/json").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(initialize), 406), 406, "not_acceptable");
        assertError(Http.error(http.post().uri("/api/mcp").header(HttpHeaders.AUTHORIZATION, bearer)
                .header(HttpHeaders.ACCEPT, "application/json, text/event-stream").contentType(MediaType.TEXT_PLAIN)
                .bodyValue(initialize), 415), 415, "unsupported_media_type");
        for (String bad : List.of("{not json", "[]", "{\"jsonrpc\":\"2.0\"}", "42")) {
            assertError(Http.error(http.post().uri("/api/mcp").header(HttpHeaders.AUTHORIZATION, bearer)
                    .header(HttpHeaders.ACCEPT, "application/json, text/event-stream")
                    .contentType(MediaType.APPLICATION_JSON).bodyValue(bad), 400), 400, "invalid_request");
        }
        Map<String, Object> version = assertError(Http.error(http.post().uri("/api/mcp")
                .header(HttpHeaders.AUTHORIZATION, bearer)
                .header(HttpHeaders.ACCEPT, "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "1999-01-01")
                .contentType(MediaType.APPLICATION_JSON).bodyValue(initialize), 400), 400, "invalid_request");
        assertThat((String) version.get("message")).contains("MCP-Protocol-Version");
    }

    @Test
    void protectedResourceMetadataNeedsNoCredential() {
        // DESIGN.md "MCP and OAuth", RFC 9728
        Map<String, Object> metadata = Http.json(http.get().uri("/.well-known/oauth-protected-resource/api/mcp"), 200);
        assertThat(metadata).containsEntry("resource", "https://api.example.test/api/mcp")
                .containsEntry("authorization_servers", List.of("https://api.example.test"))
                .containsEntry("scopes_supported", List.of("openid", "profile", "email"));
    }
}
