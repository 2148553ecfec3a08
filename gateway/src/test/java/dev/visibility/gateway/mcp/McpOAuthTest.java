package dev.visibility.gateway.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import dev.visibility.gateway.auth.EdgePrincipal;
import dev.visibility.gateway.routing.RouteTable;
import dev.visibility.gateway.support.StubServices;
import dev.visibility.platform.security.Caller;
import dev.visibility.platform.testing.Http;
import dev.visibility.platform.testing.RunningServerTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.EntityExchangeResult;

/**
 * OAuth access tokens on {@code /api/mcp} (DESIGN.md "MCP and OAuth", spec 5.10, 7.5): a token of
 * the authorization server (key pair made here, JWKS served by this test) with the right issuer,
 * audience, expiry and a client identifier claim gets past authentication (mcp-service is down in
 * this test, so the answer is the routing's 503, not a 401); every other token is 401 with the
 * {@code WWW-Authenticate} challenge; REST paths never accept OAuth tokens.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class McpOAuthTest extends RunningServerTest {

    private static final String ISSUER = "https://suite.example.test";
    private static final String RESOURCE = ISSUER + "/api/mcp";
    private static final String PROJECT = "7c1f0e4a-3b2d-4e5f-8a9b-0c1d2e3f4a5b";
    private static final RSAKey KEY = generate("key-1");
    private static final RSAKey OTHER = generate("key-1");
    private static final AtomicInteger JWKS_FETCHES = new AtomicInteger();
    /** auth-service's answers about OAuth connections (GET /internal/v1/oauth-connections/{id}), by id. */
    private static final Map<String, String> CONNECTIONS = new ConcurrentHashMap<>();
    private static final HttpServer JWKS = jwks();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        StubServices.allDown(registry);
        // auth-service's connection lookups are answered by the test's server; every other service is down
        registry.add("suite.services." + RouteTable.AUTH, () -> "http://127.0.0.1:" + JWKS.getAddress().getPort());
        registry.add("suite.edge.failed-authentications-per-minute", () -> "1000000");
        registry.add("suite.mcp.public-origin", () -> ISSUER);
        registry.add("suite.mcp.oauth.jwk-set-uri", () -> "http://127.0.0.1:" + JWKS.getAddress().getPort() + "/oauth2/jwks");
    }

    @AfterAll
    static void stopJwks() {
        JWKS.stop(0);
    }

    @Test
    void aValidTokenIsAcceptedWithAnyOfTheThreeClientIdClaims() {
        for (String claim : List.of("client_id", "oauth_client_id", "azp")) {
            int status = mcp(token(KEY, c -> c.claim(claim, "client-1"))).getStatus().value();
            // authenticated and routed: mcp-service does not run in this test
            assertThat(status).as(claim).isEqualTo(503);
        }
    }

    @Test
    void everyFaultyTokenIs401WithTheChallenge() {
        Map<String, String> tokens = Map.of(
                "expired", token(KEY, c -> c.expirationTime(Date.from(Instant.now().minusSeconds(120)))),
                "without exp", token(KEY, c -> c.expirationTime(null)),
                "another issuer", token(KEY, c -> c.issuer("https://evil.example")),
                "another audience", token(KEY, c -> c.audience("https://suite.example.test/api/v2")),
                "no client id claim", token(KEY, c -> c.claim("client_id", null)),
                "no project", token(KEY, c -> c.claim("project_id", null)),
                "signed with another key", token(OTHER, c -> { }),
                "unsigned", unsigned(),
                "tampered", tamper(token(KEY, c -> { })));
        tokens.forEach((fault, token) -> {
            EntityExchangeResult<byte[]> answer = mcp(token);
            assertThat(answer.getStatus().value()).as(fault).isEqualTo(401);
            assertThat(answer.getResponseHeaders().getFirst(HttpHeaders.WWW_AUTHENTICATE)).as(fault)
                    .isEqualTo("Bearer resource_metadata=\"" + ISSUER + "/.well-known/oauth-protected-resource/api/mcp\"");
            assertThat(Http.parse(answer.getResponseBody())).as(fault).containsEntry("error", "unauthorized");
        });
    }

    @Test
    void restPathsDoNotAcceptOAuthTokens() {
        client.get().uri("/api/v2/projects/" + PROJECT + "/usage")
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + token(KEY, c -> { }))
                .exchange().expectStatus().isEqualTo(401);
    }

    @Test
    void madeUpKeyIdsDoNotMakeTheGatewayFetchTheJwksEveryTime() throws JOSEException {
        RSAKey unknown = new RSAKeyGenerator(2048).keyID("made-up").generate();
        mcp(token(unknown, c -> { }));
        int before = JWKS_FETCHES.get();
        for (int i = 0; i < 20; i++) {
            assertThat(mcp(token(unknown, c -> { })).getStatus().value()).isEqualTo(401);
        }
        // suite.mcp.oauth.jwks-min-refresh (10 s): at most one more fetch in this burst
        assertThat(JWKS_FETCHES.get() - before).isLessThanOrEqualTo(1);
    }

    @Test
    void theConnectionActsForItsMemberWithTheScopesOfItsCapabilities() {
        // spec 5.10: read always; write and agent execution only when approved
        assertThat(McpOAuthWebFilter.scopesOf(List.of("read"))).contains("actions.read", "visibility.read", "agents.read")
                .doesNotContain("actions.write", "agents.run");
        assertThat(McpOAuthWebFilter.scopesOf(List.of("read", "write", "agent-execution")))
                .contains("actions.write", "agents.run");
        Caller caller = new EdgePrincipal(EdgePrincipal.Kind.OAUTH_CLIENT, "client-1", PROJECT, "acct", Set.of("actions.read"),
                Set.of(), null, true, false, null, "member-1").toCaller();
        assertThat(caller.clientId()).isEqualTo("client-1");
        assertThat(caller.userId()).isEqualTo("member-1");
        assertThat(caller.keyId()).isNull();
        assertThat(caller.projectId()).isEqualTo(PROJECT);
    }

    /**
     * Issue 20: a token names its connection; a revoked connection (auth-service answers 404) is refused
     * within a second although the token has not expired, and a connection of another project or
     * client never passes.
     */
    @Test
    void aRevokedConnectionIsRefusedWithinASecond() {
        CONNECTIONS.put("conn-1", connection("conn-1", PROJECT, "client-1", "read"));
        String token = token(KEY, c -> c.claim("connection_id", "conn-1"));
        // authenticated and routed: mcp-service does not run in this test
        assertThat(mcp(token).getStatus().value()).isEqualTo(503);

        CONNECTIONS.remove("conn-1");
        long revoked = System.nanoTime();
        await("the revoked connection refused").atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(50))
                .until(() -> mcp(token).getStatus().value() == 401);
        System.out.printf("revoked connection refused after %d ms%n", (System.nanoTime() - revoked) / 1_000_000);

        CONNECTIONS.put("conn-2", connection("conn-2", "00000000-0000-4000-8000-000000000000", "client-1", "read"));
        CONNECTIONS.put("conn-3", connection("conn-3", PROJECT, "client-2", "read"));
        assertThat(mcp(token(KEY, c -> c.claim("connection_id", "conn-2"))).getStatus().value()).as("another project").isEqualTo(401);
        assertThat(mcp(token(KEY, c -> c.claim("connection_id", "conn-3"))).getStatus().value()).as("another client").isEqualTo(401);
        assertThat(mcp(token(KEY, c -> c.claim("connection_id", "unknown"))).getStatus().value()).as("unknown").isEqualTo(401);
    }

    private static String connection(String id, String project, String client, String... capabilities) {
        return "{\"connectionId\":\"" + id + "\",\"memberId\":\"member-1\",\"accountId\":\"acct-1\",\"projectId\":\""
                + project + "\",\"clientId\":\"" + client + "\",\"capabilities\":[\"" + String.join("\",\"", capabilities) + "\"]}";
    }

    private EntityExchangeResult<byte[]> mcp(String token) {
        return client.post().uri("/api/mcp")
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + token)
                .header(HttpHeaders.ACCEPT, "application/json, text/event-stream")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")
                .exchange().expectBody().returnResult();
    }

    private static String token(RSAKey key, Consumer<JWTClaimsSet.Builder> change) {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                .issuer(ISSUER).subject("member-1").audience(RESOURCE)
                .issueTime(new Date()).expirationTime(Date.from(Instant.now().plusSeconds(300)))
                .claim("client_id", "client-1").claim("project_id", PROJECT)
                .claim("capabilities", List.of("read"));
        change.accept(claims);
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(),
                    claims.build());
            jwt.sign(new RSASSASigner(key));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String unsigned() {
        String header = java.util.Base64.getUrlEncoder().withoutPadding()
                .encodeToString("{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8));
        String body = token(KEY, c -> { }).split("\\.")[1];
        return header + "." + body + ".";
    }

    private static String tamper(String token) {
        String[] parts = token.split("\\.");
        String claims = new String(java.util.Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)
                .replace(PROJECT, "00000000-0000-4000-8000-000000000000");
        return parts[0] + "." + java.util.Base64.getUrlEncoder().withoutPadding()
                .encodeToString(claims.getBytes(StandardCharsets.UTF_8)) + "." + parts[2];
    }

    private static RSAKey generate(String kid) {
        try {
            return new RSAKeyGenerator(2048).keyID(kid).generate();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    private static HttpServer jwks() {
        String keys = new JWKSet(KEY.toPublicJWK()).toString();
        return StubServices.start(Map.of(
                "/oauth2/jwks", exchange -> {
                    JWKS_FETCHES.incrementAndGet();
                    StubServices.answerJson(exchange, 200, keys);
                },
                "/internal/v1/oauth-connections/", exchange -> {
                    String id = exchange.getRequestURI().getPath().substring("/internal/v1/oauth-connections/".length());
                    String found = CONNECTIONS.get(id);
                    StubServices.answerJson(exchange, found != null ? 200 : 404, found != null ? found
                            : "{\"error\":\"not_found\",\"message\":\"No active OAuth connection has this id\",\"status\":404}");
                }));
    }
}
