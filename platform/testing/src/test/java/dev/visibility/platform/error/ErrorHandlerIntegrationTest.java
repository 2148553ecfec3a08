package dev.visibility.platform.error;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.visibility.platform.security.Caller;

import dev.visibility.platform.testapp.TestApplication;
import dev.visibility.platform.testing.Http;
import dev.visibility.platform.testing.JsonShapes;
import dev.visibility.platform.testing.TestTokens;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Spec 2.1 and 7: every non-2xx, including framework-made ones, is {error, message, status[, reason]}
 * with status equal to the HTTP status, and no stack trace, class name or SQL in the body.
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ErrorHandlerIntegrationTest {

    private static final String PROJECT = "5b0c6f57-6a1f-4d43-9b8e-4a0d6f1c2e11";
    private static final String THINGS = "/api/v2/projects/" + PROJECT + "/things";

    @LocalServerPort
    int port;

    private WebTestClient client;
    private String token;

    @BeforeEach
    void setUp() {
        client = Http.client(port);
        token = TestTokens.forProject(PROJECT, "visibility.read");
    }

    @Test
    void malformedJsonIsInvalidRequest() {
        Map<String, Object> body = error(client.post().uri(THINGS).header(HttpHeaders.AUTHORIZATION, TestTokens.bearer(token))
                .contentType(MediaType.APPLICATION_JSON).bodyValue("{\"name\": \"x\", \"count\": "), 400);
        assertThat(body).containsEntry("error", "invalid_request");
        assertThat((String) body.get("message")).contains("not valid JSON");
    }

    @Test
    void wrongFieldTypeInJsonNamesTheField() {
        Map<String, Object> body = error(client.post().uri(THINGS).header(HttpHeaders.AUTHORIZATION, TestTokens.bearer(token))
                .contentType(MediaType.APPLICATION_JSON).bodyValue("{\"name\": \"x\", \"count\": \"many\"}"), 400);
        assertThat((String) body.get("message")).contains("'count'");
    }

    @Test
    void missingBodyIsInvalidRequest() {
        Map<String, Object> body = error(client.post().uri(THINGS).header(HttpHeaders.AUTHORIZATION, TestTokens.bearer(token))
                .contentType(MediaType.APPLICATION_JSON), 400);
        assertThat(body).containsEntry("error", "invalid_request");
    }

    @Test
    void unsupportedMediaTypeIs415() {
        Map<String, Object> body = error(client.post().uri(THINGS).header(HttpHeaders.AUTHORIZATION, TestTokens.bearer(token))
                .contentType(MediaType.TEXT_PLAIN).bodyValue("name=x"), 415);
        assertThat(body).containsEntry("error", "unsupported_media_type");
    }

    @Test
    void wrongMethodIs405WithAllowHeader() {
        EntityExchangeResult<byte[]> result = client.delete().uri(THINGS)
                .header(HttpHeaders.AUTHORIZATION, TestTokens.bearer(token))
                .exchange().expectStatus().isEqualTo(405).expectBody().returnResult();
        Map<String, Object> body = parse(result.getResponseBody());
        assertShape(body, 405);
        assertThat(body).containsEntry("error", "method_not_allowed");
        assertThat(result.getResponseHeaders().getFirst(HttpHeaders.ALLOW)).contains("GET").contains("POST");
    }

    @Test
    void unknownPathIsNotFound() {
        Map<String, Object> body = error(client.get().uri("/api/v2/projects/" + PROJECT + "/no-such-thing")
                .header(HttpHeaders.AUTHORIZATION, TestTokens.bearer(token)), 404);
        assertThat(body).containsEntry("error", "not_found");
    }

    @Test
    void queryValueOfWrongTypeNamesTheParameter() {
        Map<String, Object> body = error(client.get().uri(THINGS + "?limit=abc")
                .header(HttpHeaders.AUTHORIZATION, TestTokens.bearer(token)), 400);
        assertThat(body).containsEntry("error", "invalid_request");
        assertThat((String) body.get("message")).isEqualTo("Parameter 'limit' must be an integer");
    }

    @Test
    void unsupportedWindowNamesParameterAndAllowedValues() {
        Map<String, Object> body = error(client.get().uri(THINGS + "?days=7")
                .header(HttpHeaders.AUTHORIZATION, TestTokens.bearer(token)), 400);
        assertThat(body.get("message")).isEqualTo("Parameter 'days' must be one of 30, 90");
    }

    @Test
    void typedNotFoundKeepsItsMessage() {
        Map<String, Object> body = error(client.get().uri(THINGS + "/missing")
                .header(HttpHeaders.AUTHORIZATION, TestTokens.bearer(token)), 404);
        assertThat(body).containsEntry("message", "No thing with this id");
    }

    @Test
    void unexpectedFailureIsA500ThatRevealsNothing() {
        Map<String, Object> body = error(client.get().uri(THINGS + "/broken")
                .header(HttpHeaders.AUTHORIZATION, TestTokens.bearer(token)), 500);
        assertThat(body).containsEntry("error", "internal").containsEntry("message", "An internal error occurred");
    }

    @Test
    void successIsWrappedInDataAndMeta() {
        Map<String, Object> body = parse(client.get().uri(THINGS + "?days=90")
                .header(HttpHeaders.AUTHORIZATION, TestTokens.bearer(token))
                .exchange().expectStatus().isOk().expectBody().returnResult().getResponseBody());
        assertThat(body).containsOnlyKeys("data", "meta");
        @SuppressWarnings("unchecked")
        Map<String, Object> meta = (Map<String, Object>) body.get("meta");
        assertThat(meta).containsEntry("projectId", PROJECT);
        assertThat((String) meta.get("timestamp")).matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z");
        @SuppressWarnings("unchecked")
        Map<String, Object> data = (Map<String, Object>) body.get("data");
        assertThat(data).containsEntry("days", 90).containsEntry("scopes", List.of("visibility.read"));
    }

    // DESIGN.md request path 5: services accept only the gateway's internal token and repeat the project check.

    @Test
    void missingForgedAndForeignTokensAllGetTheSame401() {
        Map<String, Object> missing = error(client.get().uri(THINGS), 401);
        Map<String, Object> forged = error(client.get().uri(THINGS)
                .header(HttpHeaders.AUTHORIZATION, TestTokens.bearer(TestTokens.forgedForProject(PROJECT))), 401);
        Map<String, Object> garbage = error(client.get().uri(THINGS)
                .header(HttpHeaders.AUTHORIZATION, "Bearer svc_live_" + "a".repeat(64)), 401);
        assertThat(missing).containsEntry("error", "unauthorized");
        assertThat(forged).isEqualTo(missing);
        assertThat(garbage).isEqualTo(missing);
    }

    @Test
    void tokenOfAnotherProjectGets404() {
        String other = TestTokens.forProject("0d6f2b1e-1111-4c3c-8a7a-9f2b6c1d0e22", "visibility.read");
        Map<String, Object> body = error(client.get().uri(THINGS).header(HttpHeaders.AUTHORIZATION, TestTokens.bearer(other)), 404);
        assertThat(body).containsEntry("error", "not_found");
    }

    @Test
    void tokenWithoutProjectReachesNoProjectPath() {
        String accountOnly = TestTokens.mint(new Caller(TestTokens.ACCOUNT, null, null, null, "member-1", Set.of(), Set.of()));
        Map<String, Object> body = error(client.get().uri(THINGS).header(HttpHeaders.AUTHORIZATION, TestTokens.bearer(accountOnly)), 404);
        assertThat(body).containsEntry("error", "not_found");
    }

    @Test
    void internalEndpointsNeedTheInternalScope() {
        Map<String, Object> body = error(client.get().uri("/internal/v1/ping").header(HttpHeaders.AUTHORIZATION, TestTokens.bearer(token)), 403);
        assertThat(body).containsEntry("error", "forbidden");
        String gateway = TestTokens.mint(new Caller(null, null, null, "gateway", null, Set.of("internal"), Set.of()));
        client.get().uri("/internal/v1/ping").header(HttpHeaders.AUTHORIZATION, TestTokens.bearer(gateway))
                .exchange().expectStatus().isOk().expectBody().jsonPath("$.pong").isEqualTo("true");
    }

    @Test
    void healthProbesNeedNoToken() {
        client.get().uri("/actuator/health/liveness").exchange().expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("UP");
        client.get().uri("/actuator/health/readiness").exchange().expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("UP");
    }

    private static Map<String, Object> error(WebTestClient.RequestHeadersSpec<?> request, int status) {
        return Http.error(request, status);
    }

    static void assertShape(Map<String, Object> body, int status) {
        JsonShapes.assertError(body, status);
    }

    private static Map<String, Object> parse(byte[] raw) {
        return Http.parse(raw);
    }
}
