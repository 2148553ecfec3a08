package dev.visibility.systemtests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

import dev.visibility.platform.testing.Http;
import dev.visibility.platform.testing.Http.Answer;
import dev.visibility.platform.testing.SharedInfrastructure;
import dev.visibility.platform.testing.TestTokens;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import com.nimbusds.jose.jwk.RSAKey;
import com.sun.net.httpserver.HttpServer;

/**
 * The MCP server (spec E18, 5.7, 5.10; DESIGN.md "MCP and OAuth") through the public origin with
 * the MCP Java SDK's client, on real processes: the edge's auth-service, visibility-service,
 * actions-service and webhook-service, plus mcp-service, outcomes-service, traffic-service and
 * agents-service started here, behind a gateway of their own. Every tool is called and answers
 * exactly what its REST endpoint answers for the same request (the same data, scopes and project
 * checks), paging included; a narrowed key gets tool errors naming the scope; a revoked key is
 * refused within 1 s.
 */
class McpSystemTest {

    private static Edge edge;
    private static final List<ServiceProcess> started = new ArrayList<>();
    private static ServiceProcess gateway;
    private static final List<McpSyncClient> clients = new ArrayList<>();
    private static final List<String> actionIds = new ArrayList<>();
    /** The authorization server's signing key in these tests, and its JWKS (served by this test JVM). */
    private static final String ISSUER = "https://mcp.example.test";
    private static RSAKey signingKey;
    private static HttpServer jwks;

    @BeforeAll
    static void startMcp() {
        edge = Edge.get();
        Map<String, String> env = new HashMap<>();
        env.put("SPRING_KAFKA_BOOTSTRAP_SERVERS", SharedInfrastructure.kafkaBootstrapServers());
        env.put("SUITE_DB_HOST", "localhost");
        env.put("SUITE_DB_PORT", Integer.toString(SharedInfrastructure.postgres().getPort()));
        env.put("SUITE_DB_NAME", SharedInfrastructure.DATABASE);
        env.put("SUITE_DB_USERNAME", SharedInfrastructure.USER);
        env.put("SUITE_DB_PASSWORD", SharedInfrastructure.PASSWORD);
        env.put("SUITE_INTERNAL_TOKEN_PUBLIC_KEY", TestTokens.PUBLIC_KEY);
        env.put("SUITE_CURSOR_SECRET", TestTokens.CURSOR_SECRET);
        signingKey = OAuthTokens.key("auth-key-1");
        jwks = OAuthTokens.serveJwks(signingKey);
        try {
            ServiceProcess.prepare("mcp-service", "outcomes-service", "traffic-service", "agents-service");
            ServiceProcess outcomes = ServiceProcess.startJar("outcomes-service", "outcomes-service", env);
            started.add(outcomes);
            ServiceProcess traffic = ServiceProcess.startJar("traffic-service", "traffic-service", env);
            started.add(traffic);
            ServiceProcess agents = ServiceProcess.startJar("agents-service", "agents-service", env);
            started.add(agents);
            Map<String, String> locations = new LinkedHashMap<>();
            locations.put("auth-service", edge.auth.baseUrl());
            locations.put("visibility-service", edge.visibility.baseUrl());
            locations.put("actions-service", edge.actions.baseUrl());
            locations.put("outcomes-service", outcomes.baseUrl());
            locations.put("traffic-service", traffic.baseUrl());
            locations.put("agents-service", agents.baseUrl());
            locations.put("webhook-service", edge.webhook.baseUrl());
            List<String> routes = locations.entrySet().stream()
                    .map(e -> "--suite.services." + e.getKey() + "=" + e.getValue()).collect(Collectors.toList());
            ServiceProcess mcp = ServiceProcess.startJar("mcp-service", "mcp-service", env, routes.toArray(String[]::new));
            started.add(mcp);
            List<String> gatewayArgs = new ArrayList<>(routes);
            gatewayArgs.addAll(List.of("--suite.services.mcp-service=" + mcp.baseUrl(),
                    "--suite.rate-limit.store=local", "--suite.rate-limit.plans.plus=1000000",
                    "--suite.rate-limit.member=1000000", "--suite.edge.failed-authentications-per-minute=1000000",
                    "--suite.usage.flush-interval=1s",
                    // OAuth access tokens signed by this test's key (auth-service's authorization server in production)
                    "--suite.mcp.oauth.issuer=" + ISSUER,
                    "--suite.mcp.oauth.jwk-set-uri=http://127.0.0.1:" + jwks.getAddress().getPort() + "/oauth2/jwks"));
            Map<String, String> gatewayEnv = new HashMap<>(env);
            gatewayEnv.put("SUITE_INTERNAL_TOKEN_PRIVATE_KEY", TestTokens.PRIVATE_KEY);
            gateway = ServiceProcess.startJar("gateway", "gateway-mcp", gatewayEnv, gatewayArgs.toArray(String[]::new));
            started.add(gateway);
            CompletableFuture.allOf(started.stream()
                    .map(process -> CompletableFuture.runAsync(() -> process.awaitReady(Duration.ofMinutes(5))))
                    .toArray(CompletableFuture[]::new)).join();
        } catch (RuntimeException e) {
            started.forEach(ServiceProcess::stop);
            throw e;
        }
        for (int i = 0; i < 3; i++) {
            Answer created = rest("POST", "/actions", key(), Map.of("title", "MCP action " + i + " " + UUID.randomUUID(),
                    "description", "Written for the MCP system test", "channels", List.of("content"), "priority", "medium"));
            assertThat(created.status()).as(created.body()).isEqualTo(201);
            actionIds.add((String) created.data().get("id"));
        }
    }

    @AfterAll
    static void stop() {
        clients.forEach(McpSyncClient::closeGracefully);
        started.forEach(ServiceProcess::stop);
        if (jwks != null) {
            jwks.stop(0);
        }
    }

    private static String key() {
        return edge.seed.apiKey();
    }

    private static String project() {
        return edge.seed.projectId();
    }

    private static Answer rest(String method, String path, String key, Object body) {
        return Http.call(gateway.baseUrl(), method, "/api/v2/projects/" + project() + path, key, body, Map.of());
    }

    private static McpSyncClient mcp(String key) {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(gateway.baseUrl())
                .endpoint("/api/mcp")
                .httpRequestCustomizer((builder, method, uri, body, context) -> builder.header("Authorization", "Bearer " + key))
                .build();
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30)).build();
        clients.add(client);
        client.initialize();
        return client;
    }

    private static McpSchema.CallToolResult call(McpSyncClient client, String tool, Map<String, Object> arguments) {
        return client.callTool(new McpSchema.CallToolRequest(tool, arguments));
    }

    private static String text(McpSchema.CallToolResult result) {
        return result.content().stream().map(c -> ((McpSchema.TextContent) c).text()).collect(Collectors.joining("\n"));
    }

    /** One tool call and the REST request it stands for. */
    private record Case(String tool, Map<String, Object> arguments, String method, String restPath) {
    }

    private static List<Case> everyTool() {
        String action = actionIds.get(0);
        String unknown = UUID.randomUUID().toString();
        return List.of(
                new Case("service_get_actions", Map.of("detailLevel", "context", "pageSize", 2), "GET",
                        "/actions/list?detailLevel=context&pageSize=2"),
                new Case("service_get_action_brief", Map.of("actionId", action), "GET", "/actions/" + action + "/brief"),
                new Case("service_get_action_events", Map.of("actionId", action, "pageSize", 5), "GET",
                        "/actions/" + action + "/events?pageSize=5"),
                new Case("service_get_actions_from_prompt", Map.of("promptId", unknown), "GET",
                        "/actions/from-prompt?promptId=" + unknown),
                new Case("service_get_project_usage", Map.of(), "GET", "/usage"),
                new Case("service_get_visibility_summary", Map.of("days", 90), "GET", "/visibility/summary?days=90"),
                new Case("service_list_retained_responses", Map.of("limit", 5), "GET", "/visibility/responses?limit=5"),
                new Case("service_get_retained_response", Map.of("executionId", unknown), "GET",
                        "/visibility/responses/" + unknown),
                new Case("service_get_agent_picks_run", Map.of("testId", unknown, "runId", unknown, "limit", 10), "GET",
                        "/agent-picks/tests/" + unknown + "/runs/" + unknown + "?limit=10"),
                new Case("service_get_outcomes_ledger", Map.of("days", 90, "impactWindows", true, "pageSize", 5), "GET",
                        "/outcomes/ledger?days=90&impactWindows=true&pageSize=5"),
                new Case("service_get_what_works", Map.of("days", 90, "limit", 5), "GET",
                        "/intelligence/what-works?days=90&limit=5"),
                new Case("service_get_traffic_summary", Map.of("days", 90), "GET", "/traffic/summary?days=90"),
                new Case("service_get_adoption_metrics", Map.of("metric", "weekly_downloads"), "GET",
                        "/adoption/metrics?metric=weekly_downloads"),
                new Case("service_get_404_demand", Map.of(), "GET", "/traffic/404-demand"),
                new Case("service_get_agent_run", Map.of("runId", unknown), "GET", "/agents/runs/" + unknown),
                new Case("service_list_handoffs", Map.of("threadId", unknown), "GET",
                        "/agents/assistant/threads/" + unknown + "/handoffs"),
                new Case("service_list_webhooks", Map.of(), "GET", "/webhooks"),
                new Case("service_list_webhook_deliveries", Map.of("webhookId", unknown), "GET",
                        "/webhooks/" + unknown + "/deliveries"),
                new Case("service_update_action", Map.of("actionId", unknown, "priority", "high"), "PATCH",
                        "/actions/" + unknown),
                new Case("service_delete_thread", Map.of("threadId", unknown), "DELETE",
                        "/agents/assistant/threads/" + unknown));
    }

    @Test
    void initializeAndListEveryTool() {
        McpSyncClient client = mcp(key());
        assertThat(client.getCurrentInitializationResult().protocolVersion()).isEqualTo("2025-11-25");
        List<McpSchema.Tool> tools = client.listTools().tools();
        assertThat(tools).extracting(McpSchema.Tool::name)
                .containsExactlyInAnyOrderElementsOf(everyTool().stream().map(Case::tool).toList());
        assertThat(tools).allSatisfy(tool -> {
            assertThat(tool.inputSchema()).isNotNull();
            assertThat(tool.outputSchema()).isNotNull();
        });
    }

    @Test
    void everyToolAnswersWhatItsRestEndpointAnswers() {
        McpSyncClient client = mcp(key());
        for (Case c : everyTool()) {
            McpSchema.CallToolResult result = call(client, c.tool(), c.arguments());
            Object body = c.method().equals("PATCH") ? c.arguments().entrySet().stream()
                    .filter(e -> !e.getKey().equals("actionId"))
                    .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)) : null;
            Answer answer = rest(c.method(), c.restPath(), key(), body);
            if (answer.status() >= 200 && answer.status() < 300) {
                assertThat(result.isError()).as(c.tool() + ": " + text(result)).isFalse();
                Map<String, Object> structured = Http.map(result.structuredContent());
                assertThat(comparable(c.tool(), structured)).as(c.tool()).isEqualTo(comparable(c.tool(), answer.json()));
                // the text copy is the same JSON (spec: structuredContent plus a text block)
                assertThat(Http.parse(text(result))).as(c.tool()).isEqualTo(structured);
            } else {
                assertThat(result.isError()).as(c.tool() + " (REST " + answer.status() + ")").isTrue();
                String text = text(result);
                assertThat(text).as(c.tool()).contains("HTTP " + answer.status());
                assertThat(Http.parse(text.substring(text.indexOf('{')))).as(c.tool()).isEqualTo(answer.json());
            }
        }
    }

    /** The parts of an answer that do not depend on when it was made (meta.timestamp, the sensors' asOf, cursors, request counts). */
    @SuppressWarnings("unchecked")
    private static Object comparable(String tool, Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> {
                String name = (String) k;
                if (!name.equals("timestamp") && !name.equals("asOf") && !name.equals("nextCursor") && !name.equals("next_cursor")
                        && !(tool.equals("service_get_project_usage") && name.equals("requests"))) {
                    copy.put(name, comparable(tool, v));
                }
            });
            return copy;
        }
        if (value instanceof List<?> list) {
            return list.stream().map(v -> comparable(tool, v)).toList();
        }
        return value;
    }

    @Test
    void actionsPageTheWayE3Pages() {
        McpSyncClient client = mcp(key());
        List<Object> viaMcp = new ArrayList<>();
        List<Object> viaRest = new ArrayList<>();
        for (int page = 1; page <= 3; page++) {
            McpSchema.CallToolResult result = call(client, "service_get_actions", Map.of("page", page, "pageSize", 1));
            assertThat(result.isError()).as(text(result)).isFalse();
            Map<String, Object> data = Http.map(Http.map(result.structuredContent()).get("data"));
            Map<String, Object> pagination = Http.map(data.get("pagination"));
            assertThat(pagination).containsEntry("page", page).containsEntry("pageSize", 1);
            assertThat(((Number) pagination.get("totalCount")).intValue()).isGreaterThanOrEqualTo(3);
            viaMcp.add(Http.list(data.get("actions")).get(0).get("id"));
            Answer rest = rest("GET", "/actions/list?page=" + page + "&pageSize=1", key(), null);
            viaRest.add(Http.list(rest.data().get("actions")).get(0).get("id"));
        }
        assertThat(viaMcp).doesNotHaveDuplicates().isEqualTo(viaRest);
    }

    @Test
    void theWriteToolChangesTheActionAndItsEventsShowIt() {
        McpSyncClient client = mcp(key());
        String action = actionIds.get(1);
        McpSchema.CallToolResult updated = call(client, "service_update_action", Map.of("actionId", action, "priority", "low"));
        assertThat(updated.isError()).as(text(updated)).isFalse();
        assertThat(Http.map(Http.map(updated.structuredContent()).get("data"))).containsEntry("priority", "low");
        McpSchema.CallToolResult events = call(client, "service_get_action_events", Map.of("actionId", action));
        assertThat(text(events)).contains("priority");
    }

    @Test
    void aNarrowedKeyGetsToolErrorsNamingTheMissingScopeAndUsageNeedsNone() {
        String narrowed = createKey(List.of("visibility.read"));
        McpSyncClient client = mcp(narrowed);
        McpSchema.CallToolResult actions = call(client, "service_get_actions", Map.of());
        assertThat(actions.isError()).isTrue();
        assertThat(text(actions)).contains("actions.read");
        McpSchema.CallToolResult webhooks = call(client, "service_list_webhooks", Map.of());
        assertThat(webhooks.isError()).isTrue();
        assertThat(text(webhooks)).contains("webhooks.read");
        assertThat(call(client, "service_get_visibility_summary", Map.of()).isError()).isFalse();
        // spec 5.7: every key may read its project's status and usage
        McpSchema.CallToolResult usage = call(client, "service_get_project_usage", Map.of());
        assertThat(usage.isError()).as(text(usage)).isFalse();
        assertThat(Http.map(Http.map(usage.structuredContent()).get("meta"))).containsEntry("projectId", project());
    }

    @Test
    void aRevokedKeyIsRefusedWithinOneSecond() {
        String revoked = createKey(List.of());
        McpSyncClient client = mcp(revoked);
        assertThat(call(client, "service_get_project_usage", Map.of()).isError()).isFalse();
        Answer revoke = Http.call(gateway.baseUrl(), "DELETE", "/api/v2/account/projects/" + project() + "/api-keys/"
                + keyIdOf(revoked), edge.seed.adminToken(), null, Map.of());
        assertThat(revoke.status()).isEqualTo(200);
        long revokedAt = System.nanoTime();
        await("the revoked key refused on /api/mcp").atMost(Duration.ofSeconds(1)).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(20))
                .until(() -> Http.call(gateway.baseUrl(), "POST", "/api/mcp", revoked,
                        Map.of("jsonrpc", "2.0", "id", 1, "method", "ping"),
                        Map.of("Accept", "application/json, text/event-stream")).status() == 401);
        long refusedAfter = (System.nanoTime() - revokedAt) / 1_000_000;
        assertThat(refusedAfter).isLessThan(1000);
        // and the SDK client's next call fails
        assertThatThrownBy(() -> call(client, "service_get_project_usage", Map.of())).isInstanceOf(RuntimeException.class);
    }

    @Test
    void the401NamesTheProtectedResourceMetadataWhichNeedsNoKey() {
        Answer refused = Http.call(gateway.baseUrl(), "POST", "/api/mcp", null,
                Map.of("jsonrpc", "2.0", "id", 1, "method", "ping"), Map.of("Accept", "application/json, text/event-stream"));
        assertThat(refused.status()).isEqualTo(401);
        String metadataUrl = gateway.baseUrl() + "/.well-known/oauth-protected-resource/api/mcp";
        assertThat(refused.header("WWW-Authenticate")).isEqualTo("Bearer resource_metadata=\"" + metadataUrl + "\"");
        Answer metadata = Http.call(gateway.baseUrl(), "GET", "/.well-known/oauth-protected-resource/api/mcp", null, null,
                Map.of());
        assertThat(metadata.status()).isEqualTo(200);
        assertThat(metadata.json()).containsKeys("resource", "authorization_servers")
                .containsEntry("scopes_supported", List.of("openid", "profile", "email"));
    }

    @Test
    void anOAuthConnectionWithReadCapabilityReadsAndGetsAToolErrorForWrites() {
        // spec 5.10: the connection acts for its member on the chosen project, within its approved capabilities
        String token = OAuthTokens.sign(signingKey, ISSUER, ISSUER + "/api/mcp", "mcp-client-1", project(),
                UUID.randomUUID().toString(), List.of("read"));
        McpSyncClient client = mcp(token);
        assertThat(client.listTools().tools()).hasSize(everyTool().size());
        McpSchema.CallToolResult actions = call(client, "service_get_actions", Map.of("pageSize", 2));
        assertThat(actions.isError()).as(text(actions)).isFalse();
        Answer rest = rest("GET", "/actions/list?pageSize=2", key(), null);
        assertThat(comparable("", Http.map(actions.structuredContent()))).isEqualTo(comparable("", rest.json()));
        McpSchema.CallToolResult usage = call(client, "service_get_project_usage", Map.of());
        assertThat(usage.isError()).as(text(usage)).isFalse();
        McpSchema.CallToolResult write = call(client, "service_update_action",
                Map.of("actionId", actionIds.get(2), "priority", "high"));
        assertThat(write.isError()).isTrue();
        assertThat(text(write)).contains("capability 'write'");
        McpSchema.CallToolResult delete = call(client, "service_delete_thread", Map.of("threadId", UUID.randomUUID().toString()));
        assertThat(delete.isError()).isTrue();
        assertThat(text(delete)).contains("capability 'agent-execution'");
        // a token for another resource is refused (401), as is one without a client id claim
        for (String refused : List.of(
                OAuthTokens.sign(signingKey, ISSUER, ISSUER + "/api/v2", "mcp-client-1", project(), "m", List.of("read")),
                OAuthTokens.sign(signingKey, ISSUER, ISSUER + "/api/mcp", null, project(), "m", List.of("read")))) {
            Answer answer = Http.call(gateway.baseUrl(), "POST", "/api/mcp", refused,
                    Map.of("jsonrpc", "2.0", "id", 1, "method", "ping"), Map.of("Accept", "application/json, text/event-stream"));
            assertThat(answer.status()).isEqualTo(401);
            assertThat(answer.header("WWW-Authenticate")).contains("resource_metadata=");
        }
    }

    private static String createKey(List<String> scopes) {
        Answer created = Http.call(gateway.baseUrl(), "POST", "/api/v2/account/projects/" + project() + "/api-keys",
                edge.seed.adminToken(), Map.of("name", "mcp-system-test", "scopes", scopes), Map.of());
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return (String) created.data().get("key");
    }

    private static String keyIdOf(String key) {
        Answer list = Http.get(gateway.baseUrl(), "/api/v2/account/projects/" + project() + "/api-keys", edge.seed.adminToken());
        return Http.list(list.data().get("apiKeys")).stream().filter(k -> key.startsWith((String) k.get("prefix")))
                .map(k -> (String) k.get("id")).findFirst().orElseThrow();
    }
}
