package dev.visibility.gateway.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;
import dev.visibility.gateway.routing.RouteResolver;
import dev.visibility.gateway.routing.RouteTable;
import dev.visibility.gateway.routing.RoutingConfiguration.ServiceLocations;
import dev.visibility.gateway.support.StubServices;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The merge of the services' OpenAPI documents (issue 23), with the documents served over HTTP by a
 * local server as the services serve them ({@code GET /v3/api-docs}): public routes only, schema
 * collisions renamed, the error body of spec 7 on 400/401/403/404/429, the {@code X-RateLimit-*}
 * headers, the bearer scheme, the webhook payloads of spec 6 and a down service listed, not fatal.
 */
class OpenApiDocumentTest {

    private static final String P = "/api/v2/projects/{projectId}";
    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private HttpServer server;
    private final Map<String, String> documents = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> fetches = new ConcurrentHashMap<>();

    @BeforeEach
    void start() throws IOException {
        server = StubServices.start(Map.of("/", exchange -> {
            // /<service>/v3/api-docs: one "service" per path prefix on this one server
            String path = exchange.getRequestURI().getPath();
            String service = path.split("/")[1];
            fetches.computeIfAbsent(service, s -> new AtomicInteger()).incrementAndGet();
            String body = path.endsWith("/v3/api-docs") ? documents.get(service) : null;
            StubServices.answerJson(exchange, body == null ? 404 : 200, body == null ? "{\"error\":\"not_found\"}" : body);
        }));
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private OpenApiDocument document(int downPort) {
        Map<String, URI> locations = locations();
        locations.put(RouteTable.MCP, URI.create("http://127.0.0.1:" + downPort));
        return document(locations, Duration.ofMinutes(5), Clock.systemUTC());
    }

    /** A document of services that all answer from the stub server, kept 5 minutes (1 s when incomplete) on {@code clock}. */
    private OpenApiDocument document(Clock clock) {
        return document(locations(), Duration.ofSeconds(1), clock);
    }

    private static OpenApiDocument document(Map<String, URI> locations, Duration incompleteTtl, Clock clock) {
        OpenApiProperties properties = new OpenApiProperties(Duration.ofSeconds(2), Duration.ofMinutes(5), incompleteTtl,
                null, null, null);
        return new OpenApiDocument(new ServiceLocations(locations), new OpenApiMerger(MAPPER, new RouteResolver()), MAPPER,
                properties, clock);
    }

    private Map<String, URI> locations() {
        Map<String, URI> locations = new LinkedHashMap<>();
        for (String service : RouteTable.SERVICES) {
            locations.put(service, URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/" + service));
        }
        return locations;
    }

    /** Every service answers a valid document without paths. */
    private void everyServiceAnswers() {
        for (String service : RouteTable.SERVICES) {
            documents.put(service, serviceDocument("", ""));
        }
    }

    private int fetchesOf(String service) {
        AtomicInteger count = fetches.get(service);
        return count == null ? 0 : count.get();
    }

    /** A clock that tests move on. */
    private static final class MovableClock extends Clock {

        private volatile Instant now = Instant.parse("2026-11-29T12:00:00Z");

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }

    private static String serviceDocument(String paths, String schemas) {
        return "{\"openapi\":\"3.1.0\",\"info\":{\"title\":\"x\",\"version\":\"1\"},\"paths\":{" + paths
                + "},\"components\":{\"schemas\":{" + schemas + "}}}";
    }

    private static String get(String path, String ref) {
        // swagger-core writes the allowable values of an integer as strings, as springdoc serves them
        return "\"" + path + "\":{\"get\":{\"operationId\":\"list\",\"tags\":[\"some-controller\"],"
                + "\"parameters\":[{\"in\":\"query\",\"name\":\"days\",\"schema\":{\"type\":\"integer\",\"default\":\"30\","
                + "\"enum\":[\"30\",\"90\"]}}],\"responses\":{\"200\":"
                + "{\"description\":\"OK\",\"content\":{\"application/json\":{\"schema\":{\"$ref\":\"#/components/schemas/"
                + ref + "\"}}}}}}}";
    }

    @Test
    void mergesPublicRoutesOfEachServiceWithErrorsHeadersSecurityAndWebhooks() throws IOException {
        everyServiceAnswers();
        documents.put(RouteTable.ACTIONS, serviceDocument(
                get(P + "/actions/list", "EnvelopeActionList") + ","
                        + get("/internal/v1/actions", "Meta") + ","
                        // a path of another service's route: never attributed to actions-service
                        + get(P + "/traffic/summary", "Meta"),
                "\"EnvelopeActionList\":{\"type\":\"object\",\"properties\":{\"data\":{\"$ref\":\"#/components/schemas/Window\"},"
                        + "\"meta\":{\"$ref\":\"#/components/schemas/Meta\"}}},"
                        + "\"Window\":{\"type\":\"object\",\"properties\":{\"days\":{\"type\":\"integer\"}}},"
                        + "\"Meta\":{\"type\":\"object\",\"properties\":{\"projectId\":{\"type\":\"string\"}}}"));
        documents.put(RouteTable.OUTCOMES, serviceDocument(
                get(P + "/outcomes/ledger", "EnvelopeLedger"),
                "\"EnvelopeLedger\":{\"type\":\"object\",\"properties\":{\"window\":{\"$ref\":\"#/components/schemas/Window\"},"
                        + "\"meta\":{\"$ref\":\"#/components/schemas/Meta\"}}},"
                        // same name, different shape: renamed; same name, same shape: shared
                        + "\"Window\":{\"type\":\"object\",\"properties\":{\"dateFrom\":{\"type\":\"string\",\"format\":\"date\"}}},"
                        + "\"Meta\":{\"type\":\"object\",\"properties\":{\"projectId\":{\"type\":\"string\"}}}"));

        JsonNode doc = document(StubServices.freePort()).document().block(Duration.ofSeconds(20));

        assertThat(doc.path("openapi").asString()).isEqualTo("3.1.0");
        // the down service is listed and its paths are left out; the others are there
        assertThat(doc.path("x-unavailable").values()).extracting(JsonNode::asString).containsExactly(RouteTable.MCP);
        assertThat(doc.path("paths").has("/api/mcp")).as("gateway-described MCP route").isTrue();
        assertThat(doc.path("paths").propertyNames()).contains(P + "/actions/list", P + "/outcomes/ledger")
                .doesNotContain("/internal/v1/actions", P + "/traffic/summary");

        JsonNode list = doc.path("paths").path(P + "/actions/list").path("get");
        assertThat(list.path("operationId").asString()).isEqualTo("e3-actions-list");
        assertThat(list.path("tags").get(0).asString()).isEqualTo("actions");
        assertThat(list.path("x-required-scope").asString()).isEqualTo("actions.read");
        JsonNode days = list.path("parameters").get(0).path("schema");
        assertThat(days.path("enum").values()).allMatch(JsonNode::isIntegralNumber).extracting(JsonNode::asInt)
                .containsExactly(30, 90);
        assertThat(days.path("default").isIntegralNumber()).isTrue();
        // spec 7: the error body on 400, 401, 403, 404 and 429; the rate-limit headers on the answer
        for (String status : List.of("400", "401", "403", "404", "429")) {
            assertThat(list.path("responses").path(status).path("$ref").asString()).startsWith("#/components/responses/");
        }
        assertThat(list.path("responses").path("200").path("headers").propertyNames())
                .containsExactlyInAnyOrder("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset");
        assertThat(doc.path("components").path("responses").path("TooManyRequests").path("headers").propertyNames())
                .contains("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset");
        JsonNode error = doc.path("components").path("schemas").path("Error");
        assertThat(error.path("required").values()).extracting(JsonNode::asString)
                .containsExactlyInAnyOrder("error", "message", "status");
        assertThat(error.path("properties").propertyNames()).containsExactlyInAnyOrder("error", "message", "status", "reason");

        // the collision: outcomes' Window is renamed and its reference follows; Meta is shared once
        JsonNode schemas = doc.path("components").path("schemas");
        assertThat(schemas.path("Window").path("properties").has("days")).isTrue();
        assertThat(schemas.path("OutcomesWindow").path("properties").has("dateFrom")).isTrue();
        assertThat(schemas.path("EnvelopeLedger").path("properties").path("window").path("$ref").asString())
                .isEqualTo("#/components/schemas/OutcomesWindow");
        assertThat(schemas.has("OutcomesMeta")).isFalse();

        JsonNode bearer = doc.path("components").path("securitySchemes").path("apiKey");
        assertThat(bearer.path("type").asString()).isEqualTo("http");
        assertThat(bearer.path("scheme").asString()).isEqualTo("bearer");
        assertThat(doc.path("security").get(0).has("apiKey")).isTrue();

        // spec 6: one webhook per event, its body the event's JSON Schema with $defs moved into components
        assertThat(doc.path("webhooks").propertyNames()).containsExactlyElementsOf(OpenApiMerger.WEBHOOK_EVENTS);
        JsonNode changed = doc.path("webhooks").path("visibility.changed").path("post");
        String ref = changed.path("requestBody").path("content").path("application/json").path("schema").path("$ref").asString();
        JsonNode payload = schemas.path(ref.substring("#/components/schemas/".length()));
        assertThat(payload.path("required").values()).extracting(JsonNode::asString)
                .contains("event", "projectId", "accountId", "timestamp", "data");
        assertThat(MAPPER.writeValueAsString(doc)).doesNotContain("#/$defs/");
        assertThat(changed.path("parameters").values()).extracting(p -> p.path("name").asString())
                .contains("X-Service-Signature", "X-Service-Event");
    }

    @Test
    void aBuiltDocumentIsCachedAndAServiceAnsweringGarbageIsListedNotFatal() {
        documents.put(RouteTable.ACTIONS, "not json");
        OpenApiDocument document = document(StubServices.freePort());
        ObjectNode first = document.document().block(Duration.ofSeconds(20));
        ObjectNode second = document.document().block(Duration.ofSeconds(20));

        assertThat(first.path("x-unavailable").values()).extracting(JsonNode::asString)
                .contains(RouteTable.ACTIONS, RouteTable.VISIBILITY, RouteTable.MCP);
        assertThat(first.path("info").path("description").asString()).contains("Incomplete").contains(RouteTable.ACTIONS);
        assertThat(second).isSameAs(first);
        assertThat(fetches.get(RouteTable.ACTIONS).get()).isEqualTo(1);
    }

    @Test
    void anExpiredDocumentIsAnsweredAtOnceWhileOneBuildInTheBackgroundReplacesIt() {
        everyServiceAnswers();
        MovableClock clock = new MovableClock();
        OpenApiDocument document = document(clock);
        ObjectNode first = document.document().block(Duration.ofSeconds(20));
        assertThat(first.has("x-unavailable")).isFalse();
        assertThat(fetchesOf(RouteTable.ACTIONS)).isEqualTo(1);

        // actions-service now describes E3; the kept document is 5 minutes old
        documents.put(RouteTable.ACTIONS, serviceDocument(get(P + "/actions/list", "Meta"),
                "\"Meta\":{\"type\":\"object\"}"));
        clock.advance(Duration.ofMinutes(5));
        ObjectNode stale = document.document().block(Duration.ofSeconds(20));
        document.document().block(Duration.ofSeconds(20));

        // the caller got the kept document, without waiting for the services
        assertThat(stale).isSameAs(first);
        ObjectNode rebuilt = await("the rebuilt document").atMost(Duration.ofSeconds(20))
                .until(() -> document.document().block(Duration.ofSeconds(20)), doc -> doc != first);
        assertThat(rebuilt.path("paths").has(P + "/actions/list")).isTrue();
        // one rebuild for both callers that found the document expired
        assertThat(fetchesOf(RouteTable.ACTIONS)).isEqualTo(2);
        assertThat(document.document().block(Duration.ofSeconds(20))).isSameAs(rebuilt);
    }

    @Test
    void theWarmUpBuildsAgainWhileAServiceDoesNotAnswerAndStopsOnceComplete() {
        everyServiceAnswers();
        documents.remove(RouteTable.OUTCOMES);
        OpenApiDocument document = document(new MovableClock());
        Disposable warmUp = document.warmUp(20).subscribe();
        try {
            // outcomes-service answers 404 to the first builds; each build asks it again
            await("a second build").atMost(Duration.ofSeconds(20)).until(() -> fetchesOf(RouteTable.OUTCOMES), n -> n >= 2);
            documents.put(RouteTable.OUTCOMES, serviceDocument("", ""));
            await("the warm-up done").atMost(Duration.ofSeconds(20)).until(warmUp::isDisposed);
        } finally {
            warmUp.dispose();
        }
        int fetched = fetchesOf(RouteTable.OUTCOMES);

        // the first caller gets the complete document without a build of its own
        ObjectNode doc = document.document().block(Duration.ofSeconds(20));
        assertThat(doc.has("x-unavailable")).isFalse();
        assertThat(fetchesOf(RouteTable.OUTCOMES)).isEqualTo(fetched);
        assertThat(fetchesOf(RouteTable.ACTIONS)).isEqualTo(fetched);
    }

    @Test
    void theWarmUpGivesUpAfterItsAttempts() {
        everyServiceAnswers();
        documents.remove(RouteTable.OUTCOMES);
        OpenApiDocument document = document(new MovableClock());

        document.warmUp(3).block(Duration.ofSeconds(20));

        assertThat(fetchesOf(RouteTable.OUTCOMES)).isEqualTo(3);
        // what it built is kept: an incomplete document that names the service
        assertThat(document.document().block(Duration.ofSeconds(20)).path("x-unavailable").values())
                .extracting(JsonNode::asString).containsExactly(RouteTable.OUTCOMES);
        assertThat(fetchesOf(RouteTable.OUTCOMES)).isEqualTo(3);
    }
}
