package dev.visibility.systemtests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.visibility.gateway.routing.ApiRoute;
import dev.visibility.gateway.routing.RouteTable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue 23: {@code GET /api/v2/openapi.json} through a gateway that reaches every service, without
 * a key. Every route of {@link RouteTable} (method and path) is in the document, the query
 * parameters carry the bounds and enums the code enforces (spec 8), and Redocly CLI lints the
 * document with 0 errors. The linter is the one {@code .ci/run} installs into {@code .ci/node};
 * under {@code CI=true} a missing linter fails the test, locally it skips that one check.
 */
class OpenApiSystemTest {

    private static final String P = "/api/v2/projects/{projectId}";
    private static final Path ROOT = Path.of(System.getProperty("suite.root", "..")).toAbsolutePath().normalize();
    private static final Path REDOCLY = ROOT.resolve(".ci/node/node_modules/.bin/redocly");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final List<ServiceProcess> STARTED = new ArrayList<>();
    private static ServiceProcess gateway;
    private static String body;
    private static JsonNode document;

    @BeforeAll
    static void startTheRestOfTheServices() {
        Edge edge = Edge.get();
        // the edge runs without outcomes, traffic, agents and MCP: start them for this gateway
        ServiceProcess.prepare("outcomes-service", "traffic-service", "agents-service", "mcp-service");
        ServiceProcess outcomes = start("outcomes-service", edge);
        ServiceProcess traffic = start("traffic-service", edge);
        ServiceProcess agents = start("agents-service", edge);
        ServiceProcess mcp = start("mcp-service", edge);
        gateway = ServiceProcess.startJar("gateway", "gateway-openapi", edge.gatewayEnv,
                "--suite.services.auth-service=" + edge.auth.baseUrl(),
                "--suite.services.visibility-service=" + edge.visibility.baseUrl(),
                "--suite.services.actions-service=" + edge.actions.baseUrl(),
                "--suite.services.outcomes-service=" + outcomes.baseUrl(),
                "--suite.services.traffic-service=" + traffic.baseUrl(),
                "--suite.services.agents-service=" + agents.baseUrl(),
                "--suite.services.webhook-service=" + edge.webhook.baseUrl(),
                "--suite.services.mcp-service=" + mcp.baseUrl(),
                "--suite.openapi.fetch-timeout=20s", "--suite.openapi.incomplete-ttl=2s");
        STARTED.add(gateway);
        CompletableFuture.allOf(STARTED.stream()
                .map(process -> CompletableFuture.runAsync(() -> process.awaitReady(Duration.ofMinutes(5))))
                .toArray(CompletableFuture[]::new)).join();

        // a service builds its springdoc document on the first request (seconds on a loaded machine):
        // until every service has answered, the gateway serves the document without their paths
        // and names them in x-unavailable, then rebuilds it after suite.openapi.incomplete-ttl
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        body = Waits.until("a document with every service's paths", Duration.ofMinutes(3), () -> fetch(http),
                text -> text != null && !JSON.readTree(text).has("x-unavailable"));
        document = JSON.readTree(body);
    }

    /** GET /api/v2/openapi.json without a key: always 200 in JSON, complete or not. */
    private static String fetch(HttpClient http) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + RouteTable.OPENAPI_DOCUMENT))
                    .timeout(Duration.ofSeconds(60)).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as("GET %s without a key: %s", RouteTable.OPENAPI_DOCUMENT, response.body())
                    .isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static ServiceProcess start(String module, Edge edge) {
        ServiceProcess process = ServiceProcess.startJar(module, module + "-openapi", edge.serviceEnv);
        STARTED.add(process);
        return process;
    }

    @AfterAll
    static void stop() {
        STARTED.forEach(ServiceProcess::stop);
    }

    @Test
    void everyServiceAnsweredAndTheDocumentIsOpenApi31() {
        assertThat(document.has("x-unavailable")).as("services left out: %s", document.path("x-unavailable")).isFalse();
        assertThat(document.path("openapi").asString()).isEqualTo("3.1.0");
        assertThat(document.path("servers").get(0).path("url").asString()).isEqualTo(gateway.baseUrl());
        assertThat(document.path("components").path("securitySchemes").path("apiKey").path("scheme").asString())
                .isEqualTo("bearer");
    }

    /** Every route of the route table: its path (or, for a {@code /**} route, a path under it) with its method. */
    @Test
    void everyRouteOfTheRouteTableIsInTheDocument() {
        JsonNode paths = document.path("paths");
        List<String> missing = new ArrayList<>();
        for (ApiRoute route : RouteTable.ROUTES) {
            String method = route.method().toLowerCase(Locale.ROOT);
            boolean found;
            if (route.path().endsWith("/**")) {
                String prefix = route.path().substring(0, route.path().length() - 3);
                found = paths.propertyNames().stream().filter(p -> p.equals(prefix) || p.startsWith(prefix + "/"))
                        .anyMatch(p -> method.equals("*") ? !paths.path(p).isEmpty() : paths.path(p).has(method));
            } else {
                found = method.equals("*") ? !paths.path(route.path()).isEmpty() : paths.path(route.path()).has(method);
            }
            if (!found) {
                missing.add(route.id() + " " + route.method() + " " + route.path());
            }
        }
        assertThat(missing).as("routes missing from the document").isEmpty();
        // nothing but the route table: no internal path of a service
        assertThat(paths.propertyNames()).noneMatch(p -> p.startsWith("/internal") || p.startsWith("/actuator"));
    }

    @Test
    void parametersCarryTheBoundsAndEnumsOfTheSpecification() {
        // spec 8: E1 evidence page 1..100, default 50; cursor at most 2000 characters
        JsonNode e1 = operation("GET", P + "/agent-picks/tests/{testId}/runs/{runId}");
        assertThat(schema(e1, "limit").path("minimum").asInt()).isEqualTo(1);
        assertThat(schema(e1, "limit").path("maximum").asInt()).isEqualTo(100);
        assertThat(schema(e1, "limit").path("default").asInt()).isEqualTo(50);
        assertThat(schema(e1, "cursor").path("maxLength").asInt()).isEqualTo(2000);
        // spec 8: ledger windows 7, 30, 90, 365, default 30; page size 1..100, default 50
        JsonNode e2 = operation("GET", P + "/outcomes/ledger");
        assertThat(schema(e2, "days").path("enum").values()).extracting(JsonNode::asInt).containsExactly(7, 30, 90, 365);
        assertThat(schema(e2, "days").path("default").asInt()).isEqualTo(30);
        assertThat(schema(e2, "pageSize").path("maximum").asInt()).isEqualTo(100);
        // E3: status enum of spec 3, page size 1..100
        JsonNode e3 = operation("GET", P + "/actions/list");
        assertThat(schema(e3, "status").path("enum").values()).extracting(JsonNode::asString)
                .containsExactly("suggested", "accepted", "live", "archived");
        assertThat(schema(e3, "pageSize").path("maximum").asInt()).isEqualTo(100);
        // spec 8: E7 window 30 or 90, count 1..20
        JsonNode e7 = operation("GET", P + "/intelligence/what-works");
        assertThat(schema(e7, "days").path("enum").values()).extracting(JsonNode::asInt).containsExactly(30, 90);
        assertThat(schema(e7, "limit").path("maximum").asInt()).isEqualTo(20);
        // path parameters are declared
        assertThat(e1.path("parameters").values()).filteredOn(p -> p.path("in").asString().equals("path"))
                .extracting(p -> p.path("name").asString()).containsExactlyInAnyOrder("projectId", "testId", "runId");
        // spec 7: the error body on 400/401/403/404/429, with the rate-limit headers on 429
        for (String status : List.of("400", "401", "403", "404", "429")) {
            assertThat(e3.path("responses").has(status)).as(status).isTrue();
        }
        assertThat(document.path("components").path("responses").path("TooManyRequests").path("headers").propertyNames())
                .contains("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset");
        // spec 6: the webhook events
        assertThat(document.path("webhooks").propertyNames()).containsExactly("search-tracking.completed",
                "visibility.changed", "action.created", "action.updated", "action.recommendation.created",
                "action.recommendation.updated");
    }

    /**
     * The response schemas generated from the records list the fields of the specification, with
     * the same required ones: E12 (spec 2.12) and E1 (spec 2.2), against the JSON Schemas of
     * {@code docs/responses} that the services' own tests check their answers with.
     */
    @Test
    void responseSchemasListTheSpecificationsFieldsAndRequiredOnes() throws Exception {
        sameFields("E12", operation("GET", P + "/visibility/responses/{executionId}"), "e12-retained-response.schema.json");
        sameFields("E1", operation("GET", P + "/agent-picks/tests/{testId}/runs/{runId}"), "e1-agent-picks-run.schema.json");
    }

    private static void sameFields(String endpoint, JsonNode operation, String published) throws Exception {
        JsonNode expected = JSON.readTree(Files.readString(ROOT.resolve("docs/responses").resolve(published)))
                .path("properties").path("data");
        JsonNode generated = deref(operation.path("responses").path("200").path("content").path("application/json")
                .path("schema")).path("properties").path("data");
        List<String> differences = new ArrayList<>();
        compare(endpoint + " data", expected, generated, differences);
        assertThat(differences).as("%s: generated schema against docs/responses/%s", endpoint, published).isEmpty();
    }

    /** Same fields, same required ones, same nullability, at every level of objects and arrays. */
    private static void compare(String where, JsonNode expected, JsonNode generated, List<String> differences) {
        JsonNode want = nonNull(expected);
        JsonNode have = nonNull(deref(generated));
        if (nullable(expected) != nullable(deref(generated))) {
            differences.add(where + ": nullable " + nullable(expected) + " expected");
        }
        if (want.has("items")) {
            compare(where + "[]", want.path("items"), have.path("items"), differences);
        }
        if (!want.has("properties")) {
            return;
        }
        List<String> wantFields = new ArrayList<>(want.path("properties").propertyNames());
        List<String> haveFields = new ArrayList<>(have.path("properties").propertyNames());
        if (!new HashSet<>(wantFields).equals(new HashSet<>(haveFields))) {
            differences.add(where + ": fields " + haveFields + ", expected " + wantFields);
            return;
        }
        Set<String> wantRequired = new HashSet<>(want.path("required").values().stream().map(JsonNode::asString).toList());
        Set<String> haveRequired = new HashSet<>(have.path("required").values().stream().map(JsonNode::asString).toList());
        if (!wantRequired.equals(haveRequired)) {
            differences.add(where + ": required " + haveRequired + ", expected " + wantRequired);
        }
        for (String field : wantFields) {
            compare(where + "." + field, want.path("properties").path(field), have.path("properties").path(field), differences);
        }
    }

    private static boolean nullable(JsonNode schema) {
        JsonNode type = schema.path("type");
        if (type.isArray() && type.values().stream().anyMatch(t -> t.asString().equals("null"))) {
            return true;
        }
        return schema.path("oneOf").values().stream().anyMatch(choice -> isNullType(choice));
    }

    private static boolean isNullType(JsonNode schema) {
        return schema.path("type").isString() && schema.path("type").stringValue().equals("null");
    }

    /** The schema without its null alternative (oneOf [X, null] → X), references followed. */
    private static JsonNode nonNull(JsonNode schema) {
        for (JsonNode choice : schema.path("oneOf").values()) {
            if (!isNullType(choice)) {
                return deref(choice);
            }
        }
        return deref(schema);
    }

    private static JsonNode deref(JsonNode schema) {
        String ref = schema.path("$ref").isString() ? schema.path("$ref").asString() : "";
        return ref.isEmpty() ? schema : document.path("components").path("schemas").path(ref.substring(ref.lastIndexOf('/') + 1));
    }

    @Test
    void redoclyLintsTheDocumentWithNoError() throws Exception {
        if (!Files.isExecutable(REDOCLY)) {
            if ("true".equals(System.getenv("CI"))) {
                fail("Redocly CLI is missing at " + REDOCLY + ": .ci/run installs it (npm install --prefix .ci/node)");
            }
            Assumptions.abort("Redocly CLI is not installed at " + REDOCLY
                    + "; install it with: npm install --prefix .ci/node @redocly/cli@2.77.0 (as .ci/run does)");
        }
        Path file = Files.createTempDirectory("openapi").resolve("openapi.json");
        Files.writeString(file, body);
        Path output = file.resolveSibling("lint.txt");
        Process lint = new ProcessBuilder(REDOCLY.toString(), "lint", "--config", ROOT.resolve("redocly.yaml").toString(),
                "--format", "stylish", file.toString())
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        if (!lint.waitFor(5, TimeUnit.MINUTES)) {
            lint.destroyForcibly();
            fail("Redocly CLI did not finish within 5 minutes");
        }
        String report = Files.readString(output, StandardCharsets.UTF_8);
        // the counts (errors and warnings) in the test's output, for the record
        report.lines().filter(line -> line.contains("error") || line.contains("warning") || line.contains("valid"))
                .forEach(line -> System.out.println("redocly: " + line.strip()));
        assertThat(lint.exitValue()).as("redocly lint:%n%s", report).isZero();
        assertThat(report).as(report).doesNotContainPattern("(?m)^\\s*\\d+:\\d+\\s+error");
    }

    private static JsonNode operation(String method, String path) {
        JsonNode operation = document.path("paths").path(path).path(method.toLowerCase(Locale.ROOT));
        assertThat(operation.isObject()).as("%s %s in the document", method, path).isTrue();
        return operation;
    }

    private static JsonNode schema(JsonNode operation, String query) {
        for (JsonNode parameter : operation.path("parameters").values()) {
            if (parameter.path("in").asString().equals("query") && parameter.path("name").asString().equals(query)) {
                return parameter.path("schema");
            }
        }
        throw new AssertionError("no query parameter " + query + " in " + operation);
    }
}
