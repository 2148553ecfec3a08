package dev.visibility.auth.errors;

import static dev.visibility.platform.testing.Http.error;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

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
 * Spec 7 on the Spring MVC stack of auth-service: framework-made errors answer the error shape
 * with status equal to the HTTP status and no internals.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ServletErrorHandlingTest {

    private static final String PROJECT = "7c1f0e4a-3b2d-4e5f-8a9b-0c1d2e3f4a5b";
    private static final String PROBE = "/api/v2/projects/" + PROJECT + "/probe";

    @LocalServerPort
    int port;

    private WebTestClient client;
    private String bearer;

    @BeforeEach
    void setUp() {
        client = Http.client(port);
        bearer = TestTokens.bearer(TestTokens.forProject(PROJECT));
    }

    @Test
    void malformedJsonIs400() {
        Map<String, Object> body = error(client.post().uri(PROBE).header(HttpHeaders.AUTHORIZATION, bearer)
                .contentType(MediaType.APPLICATION_JSON).bodyValue("{\"name\":"), 400);
        assertThat(body).containsEntry("error", "invalid_request");
        assertThat((String) body.get("message")).contains("not valid JSON");
    }

    @Test
    void unsupportedMediaTypeIs415() {
        assertThat(error(client.post().uri(PROBE).header(HttpHeaders.AUTHORIZATION, bearer)
                .contentType(MediaType.TEXT_PLAIN).bodyValue("x"), 415)).containsEntry("error", "unsupported_media_type");
    }

    @Test
    void wrongMethodIs405WithAllow() {
        EntityExchangeResult<byte[]> result = client.delete().uri(PROBE).header(HttpHeaders.AUTHORIZATION, bearer)
                .exchange().expectStatus().isEqualTo(405).expectBody().returnResult();
        Map<String, Object> body = JsonShapes.assertError(Http.parse(result.getResponseBody()), 405);
        assertThat(body).containsEntry("error", "method_not_allowed");
        assertThat(result.getResponseHeaders().getFirst(HttpHeaders.ALLOW)).contains("GET");
    }

    @Test
    void unknownPathIs404() {
        assertThat(error(client.get().uri(PROBE + "/nothing/here").header(HttpHeaders.AUTHORIZATION, bearer), 404))
                .containsEntry("error", "not_found");
    }

    @Test
    void queryValueOfWrongTypeNamesTheParameter() {
        assertThat(error(client.get().uri(PROBE + "?limit=ten").header(HttpHeaders.AUTHORIZATION, bearer), 400))
                .containsEntry("message", "Parameter 'limit' must be an integer");
    }

    /**
     * A query chunk without a name ({@code &=(}, from the gateway's hostile-input test) makes Tomcat's parameter parser
     * throw on the first {@code getParameter}, in a handler's binding or in Spring Security's CSRF check of a POST:
     * a 400, never a 500. The gateway forwards the query as the caller spelled it (issue 24).
     */
    @Test
    void aQueryParameterWithoutANameIs400() {
        String query = "?limit=9%7B*%5B;9~%7C%60%3E&includeHidden=Z%5D%60@$&=(";
        assertThat(error(client.get().uri(java.net.URI.create("http://localhost:" + port + PROBE + query))
                .header(HttpHeaders.AUTHORIZATION, bearer), 400)).containsEntry("error", "invalid_request");
        assertThat(error(client.post().uri(java.net.URI.create("http://localhost:" + port + "/dashboard/projects" + query))
                .contentType(MediaType.APPLICATION_FORM_URLENCODED).bodyValue("a=1"), 400))
                .containsEntry("error", "invalid_request");
    }

    @Test
    void unexpectedFailureRevealsNothing() {
        assertThat(error(client.get().uri(PROBE + "/broken").header(HttpHeaders.AUTHORIZATION, bearer), 500))
                .containsEntry("error", "internal").containsEntry("message", "An internal error occurred");
    }
}
