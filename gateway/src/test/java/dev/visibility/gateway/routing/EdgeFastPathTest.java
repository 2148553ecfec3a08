package dev.visibility.gateway.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.visibility.gateway.auth.Credentials;
import dev.visibility.gateway.support.StubServices;
import dev.visibility.platform.testing.Http;
import dev.visibility.platform.testing.RunningServerTest;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.http.HttpHeaders;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Issue 24: the edge fast path ({@link EdgeFastPath}) answers what it admits exactly as the full way (WebFlux, Spring
 * Security, the edge filters, Spring Cloud Gateway) answers the same request, and admits nothing else. Each request
 * is made twice: as it is, and with a caller's {@code X-Forwarded-For}, which the fast path does not admit and which
 * no route forwards (so the full way answers the same request). The services behind the gateway are one plain HTTP
 * server of the test that looks keys up as auth-service does and records what it receives.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class EdgeFastPathTest extends RunningServerTest {

    private static final String OWN = "0b8e4d8e-9a55-4f8f-9c6f-7a10f1e2d3c4";
    private static final String OTHER = "6c31354f-db9b-4272-b7c5-d1c7b59505ff";
    /** actions.read and outcomes.read on the plus plan */
    private static final String KEY = "svc_live_" + "0a1b2c3d".repeat(8);
    /** the same scopes on a plan of three requests an hour */
    private static final String TINY_KEY = "svc_live_" + "9f8e7d6c".repeat(8);
    private static final BlockingQueue<Map<String, List<String>>> RECEIVED = new LinkedBlockingQueue<>();
    private static final HttpServer SERVICES = services();
    private static final String TRACEPARENT = "^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$";

    @Autowired
    EdgeFastPath fastPath;

    @Autowired
    MeterRegistry meters;

    @LocalManagementPort
    int managementPort;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        StubServices.allDown(registry);
        String services = "http://127.0.0.1:" + SERVICES.getAddress().getPort();
        registry.add("suite.services.auth-service", () -> services);
        registry.add("suite.services.actions-service", () -> services);
        registry.add("suite.rate-limit.window", () -> "1h");
        registry.add("suite.rate-limit.plans.tiny", () -> "3");
        registry.add("spring.cloud.gateway.server.webflux.httpclient.response-timeout", () -> "1s");
    }

    /** The stub on threads of its own: a request it holds back (X-Test-Delay-Ms) holds back no other. */
    private static HttpServer services() {
        try {
            HttpServer server = HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
            server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
            server.createContext("/", EdgeFastPathTest::answer);
            server.start();
            return server;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @AfterAll
    static void stop() {
        SERVICES.stop(0);
    }

    @BeforeEach
    void keyKnown() {
        // the first request of a key takes the full way (it looks the key up); from then on the gateway knows it
        client.get().uri("/api/v2/projects/" + OWN + "/actions/list").header(HttpHeaders.AUTHORIZATION, "Bearer " + KEY)
                .header("X-Forwarded-For", "192.0.2.1").exchange().expectStatus().isOk();
        RECEIVED.clear();
    }

    @Test
    void anAdmittedRequestIsAnsweredAndForwardedAsTheFullWayDoesIt() throws InterruptedException {
        for (String path : new String[] {"/api/v2/projects/" + OWN + "/usage", "/api/v2/projects/" + OWN + "/actions/list",
                "/api/v2/projects/" + OWN + "/actions/list?detailLevel=context&page=2&pageSize=25",
                "/api/v2/projects/" + OWN + "/actions/3f1c2b9a-1d2e-4f50-8a6b-0c9d8e7f6a5b/brief"}) {
            EntityExchangeResult<byte[]> fast = get(path, KEY, 1, request -> request.header("X-End-To-End", "kept")
                    .header("Cookie", "session=caller").header("Connection", "keep-alive, X-Caller-Hop").header("X-Caller-Hop", "1"));
            Map<String, List<String>> fastReceived = RECEIVED.poll(10, TimeUnit.SECONDS);
            EntityExchangeResult<byte[]> full = get(path, KEY, 0, request -> request.header("X-End-To-End", "kept")
                    .header("Cookie", "session=caller").header("Connection", "keep-alive, X-Caller-Hop").header("X-Caller-Hop", "1")
                    .header("X-Forwarded-For", "192.0.2.1"));
            Map<String, List<String>> fullReceived = RECEIVED.poll(10, TimeUnit.SECONDS);

            assertThat(fast.getStatus().value()).as(path).isEqualTo(200).isEqualTo(full.getStatus().value());
            assertThat(new String(fast.getResponseBodyContent())).as(path).isEqualTo(new String(full.getResponseBodyContent()))
                    .contains("\"path\":\"" + path.replace("?", "\",\"query\":\"") + "\"");
            assertThat(comparable(fast.getResponseHeaders())).as(path).isEqualTo(comparable(full.getResponseHeaders()));
            assertThat(fast.getResponseHeaders().getFirst("X-Service-End-To-End")).isEqualTo("kept");
            assertThat(fast.getResponseHeaders().getFirst("X-Content-Type-Options")).isEqualTo("nosniff");
            assertThat(fast.getResponseHeaders().getFirst("X-RateLimit-Limit")).isEqualTo("300");
            assertThat(Integer.parseInt(fast.getResponseHeaders().getFirst("X-RateLimit-Remaining")))
                    .isEqualTo(Integer.parseInt(full.getResponseHeaders().getFirst("X-RateLimit-Remaining")) + 1);

            // the service gets the same headers both ways: the internal token, the gateway's own trace, the
            // caller's end-to-end headers; never the key, a cookie, a hop-by-hop header or the caller's Host
            assertThat(fastReceived).isNotNull();
            assertThat(fullReceived).isNotNull();
            Map<String, List<String>> fastHeaders = lowerCased(fastReceived);
            Map<String, List<String>> fullHeaders = lowerCased(fullReceived);
            assertThat(fastHeaders.get("authorization")).singleElement().asString().startsWith("Bearer ey");
            assertThat(fastHeaders.get("authorization")).isEqualTo(fullHeaders.get("authorization"));
            assertThat(fastHeaders.get("traceparent")).singleElement().asString().matches(TRACEPARENT);
            assertThat(fullHeaders.get("traceparent")).singleElement().asString().matches(TRACEPARENT);
            assertThat(fastHeaders).containsEntry("x-end-to-end", List.of("kept"))
                    .containsEntry("host", List.of("127.0.0.1:" + SERVICES.getAddress().getPort()))
                    .doesNotContainKeys("cookie", "x-caller-hop", "x-forwarded-for", "forwarded");
            fastHeaders.remove("traceparent");
            fullHeaders.remove("traceparent");
            for (String differs : List.of("content-length", "webtestclient-request-id")) {
                fastHeaders.remove(differs);
                fullHeaders.remove(differs);
            }
            assertThat(fastHeaders).as(path).isEqualTo(fullHeaders);
        }
    }

    /**
     * Java's HttpClient asks every cleartext request to upgrade to HTTP/2 and sends {@code Content-Length: 0} with a
     * GET (the benchmark's client, and many a CI pipeline's): admitted, answered over HTTP/1.1, and neither the upgrade
     * nor its settings reach the service.
     */
    @Test
    void javasHttpClientTakesTheFastPath() throws Exception {
        HttpClient jdk = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        long before = fastPath.served();
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> response = jdk.send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + port + "/api/v2/projects/" + OWN + "/usage"))
                    .header(HttpHeaders.AUTHORIZATION, "Bearer " + KEY).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
            assertThat(response.body()).isEqualTo("{\"path\":\"/api/v2/projects/" + OWN + "/usage\"}");
            Map<String, List<String>> received = lowerCased(RECEIVED.poll(10, TimeUnit.SECONDS));
            assertThat(received).doesNotContainKeys("upgrade", "http2-settings");
            assertThat(received.getOrDefault("connection", List.of()).toString()).doesNotContainIgnoringCase("upgrade");
        }
        assertThat(fastPath.served() - before).isEqualTo(2);
    }

    /** Every request that any edge check would not pass, or that the full way treats otherwise, goes the full way. */
    @Test
    void whatTheFastPathDoesNotAdmitGoesTheFullWayAndIsAnsweredAsBefore() {
        String own = "/api/v2/projects/" + OWN;
        Map<String, Integer> statuses = new TreeMap<>();
        record Case(String name, String path, String key, UnaryOperator<WebTestClient.RequestHeadersSpec<?>> extra, int status) {
        }
        List<Case> cases = List.of(
                new Case("another project", "/api/v2/projects/" + OTHER + "/usage", KEY, r -> r, 404),
                new Case("another project, another route", "/api/v2/projects/" + OTHER + "/actions/list", KEY, r -> r, 404),
                new Case("the project upper-cased", "/api/v2/projects/" + OWN.toUpperCase() + "/usage", KEY, r -> r, 404),
                new Case("a percent-encoded segment", "/api/v2/%70rojects/" + OWN + "/usage", KEY, r -> r, 400),
                new Case("a matrix parameter", "/api/v2/projects;x=1/" + OWN + "/usage", KEY, r -> r, 400),
                new Case("an empty segment", "/api/v2/projects//" + OWN + "/usage", KEY, r -> r, 400),
                new Case("a dot segment", own + "/./usage", KEY, r -> r, 400),
                new Case("a trailing slash", own + "/usage/", KEY, r -> r, 404),
                new Case("an unknown path", own + "/unknown", KEY, r -> r, 404),
                new Case("a route without the key's scope", own + "/webhooks", KEY, r -> r, 403),
                new Case("an unknown key", own + "/usage", "svc_live_" + "1".repeat(64), r -> r, 401),
                new Case("not a key", own + "/usage", "svc_live_xyz", r -> r, 401),
                new Case("no key", own + "/usage", null, r -> r, 401),
                // the full way reads the first (and forwards neither)
                new Case("two keys", own + "/usage", KEY, r -> r.header(HttpHeaders.AUTHORIZATION, "Bearer " + KEY), 200),
                new Case("a percent-encoded query", own + "/actions/list?status=%73uggested", KEY, r -> r, 200),
                new Case("CORS", own + "/usage", KEY, r -> r.header("Origin", "https://app.example"), 200),
                new Case("a caller's trace", own + "/usage", KEY, r -> r.header("traceparent",
                        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"), 200),
                new Case("Forwarded", own + "/usage", KEY, r -> r.header("Forwarded", "for=192.0.2.60"), 200),
                new Case("an upgrade other than HTTP/2's", own + "/usage", KEY, r -> r.header("Upgrade", "websocket"), 200));
        for (Case c : cases) {
            long before = fastPath.served();
            // the path as written, not as a URI template would encode or normalise it
            WebTestClient.RequestHeadersSpec<?> request = client.get().uri(URI.create("http://127.0.0.1:" + port + c.path()));
            if (c.key() != null) {
                request = request.header(HttpHeaders.AUTHORIZATION, "Bearer " + c.key());
            }
            int status = c.extra().apply(request).exchange().returnResult(byte[].class).getStatus().value();
            statuses.put(c.name(), status);
            assertThat(status).as(c.name()).isEqualTo(c.status());
            assertThat(fastPath.served()).as(c.name() + ": not on the fast path").isEqualTo(before);
        }
        // other methods go the full way too
        long before = fastPath.served();
        client.head().uri(own + "/usage").header(HttpHeaders.AUTHORIZATION, "Bearer " + KEY).exchange().expectStatus().isOk();
        client.post().uri(own + "/usage").header(HttpHeaders.AUTHORIZATION, "Bearer " + KEY).exchange().expectStatus().isEqualTo(405);
        assertThat(fastPath.served()).isEqualTo(before);
        assertThat(statuses).hasSize(cases.size());
    }

    /** The rate limit counts both ways in one window, and its refusal on the fast path is the full way's 429. */
    @Test
    void theRateLimitRefusesOnTheFastPathAsOnTheFullWay() {
        String path = "/api/v2/projects/" + OWN + "/usage";
        // the key's first request looks it up (the full way); the next ones take the fast path
        assertThat(get(path, TINY_KEY, 0, request -> request).getStatus().value()).isEqualTo(200);
        assertThat(get(path, TINY_KEY, 1, request -> request).getStatus().value()).isEqualTo(200);
        EntityExchangeResult<byte[]> third = get(path, TINY_KEY, 1, request -> request);
        assertThat(third.getStatus().value()).isEqualTo(200);
        assertThat(third.getResponseHeaders().getFirst("X-RateLimit-Remaining")).isEqualTo("0");
        EntityExchangeResult<byte[]> fast = get(path, TINY_KEY, 1, request -> request);
        EntityExchangeResult<byte[]> full = get(path, TINY_KEY, 0, request -> request.header("X-Forwarded-For", "192.0.2.1"));
        for (EntityExchangeResult<byte[]> refused : List.of(fast, full)) {
            assertThat(refused.getStatus().value()).isEqualTo(429);
            assertThat(new String(refused.getResponseBodyContent())).contains("\"error\":\"rate_limited\"").contains("\"status\":429");
            assertThat(refused.getResponseHeaders().getFirst("X-RateLimit-Limit")).isEqualTo("3");
            assertThat(refused.getResponseHeaders().getFirst("X-RateLimit-Remaining")).isEqualTo("0");
            assertThat(Long.parseLong(refused.getResponseHeaders().getFirst(HttpHeaders.RETRY_AFTER))).isPositive();
        }
        assertThat(comparable(fast.getResponseHeaders())).isEqualTo(comparable(full.getResponseHeaders()));
    }

    /** A service that is down, or does not answer in time, is the full way's 503 or 504 in the error shape. */
    @Test
    void aServiceThatIsDownOrSlowIsAnsweredAsTheFullWayAnswersIt() {
        String ledger = "/api/v2/projects/" + OWN + "/outcomes/ledger";
        EntityExchangeResult<byte[]> fast = get(ledger, KEY, 1, request -> request);
        EntityExchangeResult<byte[]> full = get(ledger, KEY, 0, request -> request.header("X-Forwarded-For", "192.0.2.1"));
        assertThat(fast.getStatus().value()).isEqualTo(503).isEqualTo(full.getStatus().value());
        assertThat(new String(fast.getResponseBodyContent())).contains("\"error\":\"unavailable\"")
                .isEqualTo(new String(full.getResponseBodyContent()));
        assertThat(comparable(fast.getResponseHeaders())).isEqualTo(comparable(full.getResponseHeaders()));

        String slow = "/api/v2/projects/" + OWN + "/usage";
        EntityExchangeResult<byte[]> fastTimeout = get(slow, KEY, 1, request -> request.header("X-Test-Delay-Ms", "3000"));
        EntityExchangeResult<byte[]> fullTimeout = get(slow, KEY, 0, request -> request.header("X-Test-Delay-Ms", "3000")
                .header("X-Forwarded-For", "192.0.2.1"));
        assertThat(fastTimeout.getStatus().value()).isEqualTo(504).isEqualTo(fullTimeout.getStatus().value());
        assertThat(new String(fastTimeout.getResponseBodyContent())).contains("\"error\":\"unavailable\"")
                .isEqualTo(new String(fullTimeout.getResponseBodyContent()));
        assertThat(comparable(fastTimeout.getResponseHeaders())).isEqualTo(comparable(fullTimeout.getResponseHeaders()));
    }

    /**
     * Both ways count a request in the same meters: http.server.requests and spring.cloud.gateway.requests. The
     * requests here are the only ones of their route and status (203), so no other test's request, recorded once its
     * answer is written, can land in the counts.
     */
    @Test
    void aRequestOnTheFastPathIsCountedInTheSameMetersAsOnTheFullWay() {
        String path = "/api/v2/projects/" + OWN + "/actions/" + java.util.UUID.randomUUID() + "/events";
        get(path, KEY, 1, request -> request.header("X-Test-Status", "203"));
        get(path, KEY, 0, request -> request.header("X-Test-Status", "203").header("X-Forwarded-For", "192.0.2.1"));
        // both ways record a request once its answer is written, which may be just after the client has read it
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while ((serverRequests() < 2 || routeRequests() < 2) && System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
        assertThat(serverRequests()).isEqualTo(2);
        assertThat(routeRequests()).isEqualTo(2);
        // one meter: the two ways tag a request alike (outcome SUCCESS, as Spring's observation has it)
        assertThat(meters.find("http.server.requests").tag("method", "GET").tag("uri", "UNKNOWN").tag("status", "203").timers())
                .singleElement().satisfies(timer -> assertThat(timer.getId().getTag("outcome")).isEqualTo("SUCCESS"));
    }

    private double routeRequests() {
        Timer timer = meters.find("spring.cloud.gateway.requests").tag("routeId", "action-events").tag("httpMethod", "GET")
                .tag("httpStatusCode", "203").timer();
        return timer == null ? 0 : timer.count();
    }

    private double serverRequests() {
        Timer timer = meters.find("http.server.requests").tag("method", "GET").tag("uri", "UNKNOWN").tag("status", "203").timer();
        return timer == null ? 0 : timer.count();
    }

    /**
     * Answers short and long, with a length and streamed without one (the fast path passes the pieces on as they
     * arrive): the caller gets what the full way gives, byte for byte, with the same headers.
     */
    @Test
    void answersOfAnySizeWithALengthOrStreamedArePassedOnAsTheFullWayDoes() {
        String path = "/api/v2/projects/" + OWN + "/usage";
        for (int bytes : new int[] {0, 1, 3_000, 65_536, 65_537, 300_000}) {
            for (boolean chunked : new boolean[] {false, true}) {
                String size = String.valueOf(bytes);
                UnaryOperator<WebTestClient.RequestHeadersSpec<?>> answer = chunked
                        ? request -> request.header("X-Test-Body-Bytes", size).header("X-Test-Chunked", "yes")
                        : request -> request.header("X-Test-Body-Bytes", size);
                EntityExchangeResult<byte[]> fast = get(path, KEY, 1, answer);
                EntityExchangeResult<byte[]> full = get(path, KEY, 0, request -> answer.apply(request).header("X-Forwarded-For", "192.0.2.1"));
                String what = bytes + " bytes" + (chunked ? ", streamed" : "");
                assertThat(fast.getStatus().value()).as(what).isEqualTo(200).isEqualTo(full.getStatus().value());
                byte[] body = fast.getResponseBodyContent() == null ? new byte[0] : fast.getResponseBodyContent();
                assertThat(body).as(what).hasSize(bytes)
                        .isEqualTo(full.getResponseBodyContent() == null ? new byte[0] : full.getResponseBodyContent());
                if (bytes > 0) {
                    assertThat(body[bytes - 1]).as(what).isEqualTo((byte) ('a' + (bytes - 1) % 26));
                }
                assertThat(comparable(fast.getResponseHeaders())).as(what).isEqualTo(comparable(full.getResponseHeaders()));
                RECEIVED.clear();
            }
        }
    }

    /** The management server (its own port and context) has no fast path. */
    @Test
    void theManagementPortProxiesNothing() {
        long before = fastPath.served();
        EntityExchangeResult<byte[]> result = Http.client(managementPort).get().uri("/api/v2/projects/" + OWN + "/usage")
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + KEY).exchange().expectBody().returnResult();
        // what the management server answers is the full way's business (without Spring AOT its context sees the
        // public one's handlers); the fast path never takes such a request
        assertThat(result.getStatus().value()).isLessThan(500);
        assertThat(fastPath.served()).isEqualTo(before);
    }

    /** A GET with a key; {@code onFastPath} requests the fast path served (1) or not (0). */
    private EntityExchangeResult<byte[]> get(String path, String key, int onFastPath,
            UnaryOperator<WebTestClient.RequestHeadersSpec<?>> extra) {
        long before = fastPath.served();
        EntityExchangeResult<byte[]> result = extra.apply(client.get().uri(path).header(HttpHeaders.AUTHORIZATION, "Bearer " + key))
                .exchange().expectBody().returnResult();
        assertThat(fastPath.served() - before).as(path + (onFastPath == 1 ? " on the fast path" : " the full way")).isEqualTo(onFastPath);
        return result;
    }

    /** An answer's headers but the ones that differ between two requests (the time, the remaining requests). */
    private static Map<String, List<String>> comparable(HttpHeaders headers) {
        Map<String, List<String>> kept = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        headers.forEach((name, values) -> kept.put(name, values));
        kept.remove(HttpHeaders.DATE);
        kept.remove("X-RateLimit-Remaining");
        kept.remove("X-RateLimit-Reset");
        kept.remove(HttpHeaders.RETRY_AFTER);
        return kept;
    }

    private static Map<String, List<String>> lowerCased(Map<String, List<String>> headers) {
        Map<String, List<String>> lower = new TreeMap<>();
        headers.forEach((name, values) -> lower.put(name.toLowerCase(java.util.Locale.ROOT), values));
        return lower;
    }

    private static void answer(HttpExchange exchange) throws java.io.IOException {
        String path = exchange.getRequestURI().getRawPath();
        if (path.startsWith("/internal/v1/api-keys/")) {
            String hash = path.substring("/internal/v1/api-keys/".length());
            String plan = hash.equals(Credentials.sha256Hex(KEY)) ? "plus" : hash.equals(Credentials.sha256Hex(TINY_KEY)) ? "tiny" : null;
            if (plan == null) {
                StubServices.answerJson(exchange, 404, "{\"error\":\"not_found\"}");
                return;
            }
            StubServices.answerJson(exchange, 200, """
                    {"keyId":"key-%s","projectId":"%s","accountId":"account-1","name":"CI","scopes":["actions.read","outcomes.read"],
                     "features":[],"plan":"%s","apiAccess":true,"paused":false}""".formatted(plan, OWN, plan));
            return;
        }
        RECEIVED.add(Map.copyOf(exchange.getRequestHeaders()));
        String delay = exchange.getRequestHeaders().getFirst("X-Test-Delay-Ms");
        if (delay != null) {
            try {
                Thread.sleep(Long.parseLong(delay));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        exchange.getResponseHeaders().add("X-Service-End-To-End", "kept");
        exchange.getResponseHeaders().add("Connection", "X-Service-Hop");
        exchange.getResponseHeaders().add("X-Service-Hop", "1");
        String size = exchange.getRequestHeaders().getFirst("X-Test-Body-Bytes");
        if (size != null) {
            // an answer of that many bytes, with its length or (X-Test-Chunked) streamed without one
            byte[] body = new byte[Integer.parseInt(size)];
            for (int i = 0; i < body.length; i++) {
                body[i] = (byte) ('a' + i % 26);
            }
            exchange.getResponseHeaders().set("Content-Type", "text/plain");
            boolean chunked = exchange.getRequestHeaders().getFirst("X-Test-Chunked") != null;
            exchange.sendResponseHeaders(200, chunked ? 0 : body.length == 0 ? -1 : body.length);
            try (java.io.OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
            return;
        }
        String query = exchange.getRequestURI().getRawQuery();
        String status = exchange.getRequestHeaders().getFirst("X-Test-Status");
        StubServices.answerJson(exchange, status == null ? 200 : Integer.parseInt(status), "{\"path\":\"" + path + (query == null ? "" : "\",\"query\":\"" + query) + "\"}");
    }
}
