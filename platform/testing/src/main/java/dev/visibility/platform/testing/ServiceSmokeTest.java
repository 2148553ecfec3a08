package dev.visibility.platform.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.http.HttpHeaders;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * What every service proves in its one full-context test (subclass it with
 * {@code @SpringBootTest(webEnvironment = RANDOM_PORT)}): it starts against the real broker and
 * database, migrates its own schema, answers its probes, refuses calls without the internal
 * token and answers unknown paths in the error shape (spec 7, DESIGN.md "Errors").
 */
public abstract class ServiceSmokeTest extends RunningServerTest {

    protected static final String PROJECT = "7c1f0e4a-3b2d-4e5f-8a9b-0c1d2e3f4a5b";

    /** The Actuator's own port (health, info, prometheus), which the gateway never routes (issue 23). */
    @LocalManagementPort
    protected int managementPort;

    @Autowired
    org.springframework.beans.factory.ObjectProvider<dev.visibility.platform.outbox.OutboxRelay> outboxRelay;

    @Value("${spring.application.name}")
    protected String applicationName;

    @Value("${suite.db.schema}")
    protected String schema;

    @Autowired
    protected DatabaseClient db;

    protected WebTestClient management;

    @BeforeEach
    void createManagementClient() {
        management = Http.client(managementPort);
    }

    @Test
    void livenessAndReadinessAreUp() {
        management.get().uri("/actuator/health/liveness").exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.status").isEqualTo("UP");
        management.get().uri("/actuator/health/readiness").exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.status").isEqualTo("UP");
    }

    /**
     * Issue 23: the Prometheus scrape answers on the management port with the service's name on
     * every meter and the request meters of its routes; the service's own port has no Actuator.
     */
    @Test
    void metricsAnswerOnTheManagementPortOnly() {
        assertThat(managementPort).as("management port").isNotEqualTo(port);
        // one request, so that the request meters exist
        client.get().uri("/api/v2/projects/" + PROJECT + "/anything").exchange().expectStatus().isUnauthorized();
        String scrape = management.get().uri("/actuator/prometheus").exchange()
                .expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
        assertThat(scrape).contains("jvm_memory_used_bytes{").contains("application=\"" + applicationName + "\"")
                .contains("http_server_requests_seconds_bucket{");
        if (outboxRelay.getIfAvailable() != null) {
            // docs/operations.md: the outbox's backlog gauges, wherever the relay runs
            assertThat(scrape).contains("outbox_backlog_rows{").contains("outbox_oldest_unsent_age_seconds{");
        }
        for (String path : List.of("/actuator/prometheus", "/actuator/health", "/actuator/health/readiness")) {
            Map<String, Object> body = errorBody(client.get().uri(path), 404);
            assertThat(body).as(path).containsEntry("error", "not_found");
        }
    }

    /**
     * Probes and other calls over a reused connection are all answered: Reactor Netty 1.3.6 left
     * about one request in fifty on a keep-alive connection unanswered for good (reactor-netty#4188).
     */
    @Test
    void everyRequestOnOneKeepAliveConnectionIsAnswered() throws Exception {
        List<Integer> statuses = KeepAliveRequests.statuses(managementPort, "/actuator/health/liveness", 500, 5_000);
        assertThat(statuses).hasSize(500).containsOnly(200);
        List<Integer> refused = KeepAliveRequests.statuses(port, "/api/v2/projects/" + PROJECT + "/anything", 300, 5_000);
        assertThat(refused).hasSize(300).containsOnly(401);
    }

    @Test
    void ownSchemaIsMigratedWithThePlatformTables() {
        List<String> tables = db.sql("SELECT table_name FROM information_schema.tables WHERE table_schema = :schema")
                .bind("schema", schema)
                .map(row -> row.get(0, String.class))
                .all().collectList().block();
        assertThat(tables).contains("outbox", "processed_events", "flyway_schema_history");
    }

    @Test
    void callWithoutInternalTokenIs401InTheErrorShape() {
        Map<String, Object> body = errorBody(client.get().uri("/api/v2/projects/" + PROJECT + "/anything"), 401);
        assertThat(body).containsEntry("error", "unauthorized");
    }

    @Test
    void unknownPathWithTokenIs404InTheErrorShape() {
        String token = TestTokens.forProject(PROJECT);
        Map<String, Object> body = errorBody(client.get().uri("/api/v2/projects/" + PROJECT + "/no-such-path-" + UUID.randomUUID())
                .header(HttpHeaders.AUTHORIZATION, TestTokens.bearer(token)), 404);
        assertThat(body).containsEntry("error", "not_found");
    }

    @Test
    void anotherProjectsPathIs404() {
        String token = TestTokens.forProject(PROJECT);
        Map<String, Object> body = errorBody(client.get().uri("/api/v2/projects/" + UUID.randomUUID() + "/anything")
                .header(HttpHeaders.AUTHORIZATION, TestTokens.bearer(token)), 404);
        assertThat(body).containsEntry("error", "not_found");
    }

    /**
     * Issue 15: the service repeats the gateway's project check on the decoded path, and refuses a
     * path that is not in canonical form before its security chain, so no spelling of another
     * project's path (or of {@code /internal}) reaches a handler even with a valid token.
     */
    @Test
    void noSpellingOfAnotherProjectsPathReachesAHandler() {
        String token = TestTokens.forProject(PROJECT);
        String other = UUID.randomUUID().toString();
        for (String path : List.of("/api/v2/%70rojects/" + other + "/usage", "/api/v2/projects;x=1/" + other + "/usage",
                "/api/v2/projects/" + other + "%2Fusage", "/api/v2//projects/" + other + "/usage",
                "/api/v2/projects/" + PROJECT + "/../" + other + "/usage", "/%61pi/v2/projects/" + other + "/usage",
                "/%69nternal/v1/anything", "/api/v2/projects/" + PROJECT + "/x%00")) {
            Map<String, Object> body = errorBody(client.get().uri(java.net.URI.create("http://localhost:" + port + path))
                    .header(HttpHeaders.AUTHORIZATION, TestTokens.bearer(token)), 400);
            assertThat(body).as(path).containsEntry("error", "invalid_request");
        }
        Map<String, Object> foreign = errorBody(client.get().uri("/api/v2/projects/" + other + "/usage")
                .header(HttpHeaders.AUTHORIZATION, TestTokens.bearer(token)), 404);
        assertThat(foreign).containsEntry("error", "not_found");
    }

    /**
     * Issue 23: the service's OpenAPI document (springdoc) answers without the internal token, for
     * the gateway to merge; it is OpenAPI 3.1 and lists only the public {@code /api} paths. Nothing
     * else under it is open.
     */
    @Test
    void openApiDocumentAnswersWithoutTheTokenAndListsOnlyPublicPaths() {
        Map<?, ?> document = client.get().uri("/v3/api-docs").exchange()
                .expectStatus().isOk()
                .expectBody(Map.class).returnResult().getResponseBody();
        assertThat(document.get("openapi")).isEqualTo("3.1.0");
        assertThat(((Map<?, ?>) document.get("paths")).keySet())
                .allSatisfy(path -> assertThat(path.toString()).startsWith("/api/"));
        Map<String, Object> body = errorBody(client.get().uri("/v3/api-docs/swagger-config"), 401);
        assertThat(body).containsEntry("error", "unauthorized");
    }

    /** Asserts the error shape of spec 7 and answers the parsed body. */
    protected Map<String, Object> errorBody(WebTestClient.RequestHeadersSpec<?> request, int status) {
        return Http.error(request, status);
    }
}
