package dev.visibility.gateway.mcp;

import static dev.visibility.platform.testing.JsonShapes.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.visibility.gateway.support.StubServices;
import dev.visibility.platform.testing.Http;
import dev.visibility.platform.testing.RunningServerTest;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * DESIGN.md "MCP and OAuth": a 401 on {@code /api/mcp} carries
 * {@code WWW-Authenticate: Bearer resource_metadata="<origin>/.well-known/oauth-protected-resource/api/mcp"}
 * (RFC 9728 section 5.1), whatever the credential's fault; REST 401s do not.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "suite.mcp.public-origin=https://api.example.test/")
class McpChallengeTest extends RunningServerTest {

    private static final String CHALLENGE =
            "Bearer resource_metadata=\"https://api.example.test/.well-known/oauth-protected-resource/api/mcp\"";

    @DynamicPropertySource
    static void servicesAreDown(DynamicPropertyRegistry registry) {
        StubServices.allDown(registry);
        registry.add("suite.edge.failed-authentications-per-minute", () -> "1000000");
    }

    @Test
    void a401OnTheMcpEndpointNamesTheProtectedResourceMetadata() {
        for (String authorization : new String[] {null, "Bearer not-a-key", "Bearer eyJhbGciOiJSUzI256In0.e30.c2ln",
                "Basic dXNlcjpwYXNz"}) {
            WebTestClient.RequestHeadersSpec<?> request = client.post().uri("/api/mcp")
                    .contentType(MediaType.APPLICATION_JSON)
                    .header(HttpHeaders.ACCEPT, "application/json, text/event-stream")
                    .bodyValue("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
            if (authorization != null) {
                request = request.header(HttpHeaders.AUTHORIZATION, authorization);
            }
            EntityExchangeResult<byte[]> answer = request.exchange().expectBody().returnResult();
            assertThat(answer.getStatus().value()).as(authorization).isEqualTo(401);
            assertThat(answer.getResponseHeaders().getFirst(HttpHeaders.WWW_AUTHENTICATE)).as(authorization)
                    .isEqualTo(CHALLENGE);
            assertError(Http.error(client.get().uri("/api/mcp"), 401), 401, "unauthorized");
        }
    }

    @Test
    void aRest401CarriesNoMcpChallenge() {
        EntityExchangeResult<byte[]> answer = client.get().uri("/api/v2/projects/p/usage").exchange()
                .expectBody().returnResult();
        assertThat(answer.getStatus().value()).isEqualTo(401);
        assertThat(answer.getResponseHeaders().get(HttpHeaders.WWW_AUTHENTICATE)).isNull();
    }
}
