package dev.visibility.gateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.visibility.gateway.routing.RouteRequestTimer;
import dev.visibility.gateway.routing.RouteTable;
import dev.visibility.gateway.routing.ServiceUrlFilter;
import dev.visibility.gateway.support.StubServices;
import dev.visibility.platform.testing.RunningServerTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cloud.gateway.config.GatewayNoLoadBalancerClientAutoConfiguration;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.filter.NettyRoutingFilter;
import org.springframework.cloud.gateway.filter.NettyWriteResponseFilter;
import org.springframework.cloud.gateway.filter.WeightCalculatorWebFilter;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.TransferEncodingNormalizationHeadersFilter;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * What crosses the gateway's proxy, checked at a service behind it: a plain HTTP server that records the headers it
 * receives and answers with headers of its own.
 * <ul>
 * <li>Traces (docs/operations.md, Traces; issue 24): with Spring Cloud Gateway's own client observation off, the
 * service still gets a W3C {@code traceparent}: the gateway's span of the request, in the caller's trace when the
 * caller sent one, never the caller's own header.</li>
 * <li>Hop-by-hop headers (RFC 9110 section 7.6.1) stay on their side in both directions, and a caller's
 * {@code Forwarded} and {@code X-Forwarded-*} headers never reach a service, now that the gateway's own filters do
 * what Spring Cloud Gateway's three copying header filters did (issue 24, {@code HopByHopHeaders}).</li>
 * </ul>
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ProxiedHeadersTest extends RunningServerTest {

    private static final String TRACEPARENT = "^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$";
    private static final BlockingQueue<Map<String, List<String>>> RECEIVED = new LinkedBlockingQueue<>();
    private static final BlockingQueue<URI> RECEIVED_URIS = new LinkedBlockingQueue<>();
    private static final String ANSWER_WITH_HOP_HEADERS = "X-Test-Answer-With-Hop-Headers";
    private static final String ANSWER_WITH_STATUS = "X-Test-Answer-With-Status";
    /** long or events: the service sends its answer in two parts, the second once {@link #SECOND_PART} is counted down */
    private static final String ANSWER_IN_TWO_PARTS = "X-Test-Answer-In-Two-Parts";
    private static volatile CountDownLatch SECOND_PART = new CountDownLatch(1);
    /** whether the service sent the second part because nobody counted {@link #SECOND_PART} down in time */
    private static final AtomicBoolean SECOND_PART_WITHOUT_WAITING_FOR_IT = new AtomicBoolean();
    private static final HttpServer SERVICE = service();
    /** A service that answers nothing until the tests are over. */
    private static final CountDownLatch OVER = new CountDownLatch(1);
    private static final HttpServer SILENT_SERVICE = silentService();

    @Autowired
    ApplicationContext context;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        StubServices.allDown(registry);
        registry.add("suite.services." + RouteTable.AUTH, () -> "http://127.0.0.1:" + SERVICE.getAddress().getPort());
        registry.add("suite.services." + RouteTable.MCP, () -> "http://127.0.0.1:" + SILENT_SERVICE.getAddress().getPort());
        // short enough for a test, long enough for the stub's prompt answers on a busy machine
        registry.add("spring.cloud.gateway.server.webflux.httpclient.response-timeout", () -> "3s");
    }

    @BeforeEach
    void forgetReceived() {
        RECEIVED.clear();
        RECEIVED_URIS.clear();
        SECOND_PART = new CountDownLatch(1);
        SECOND_PART_WITHOUT_WAITING_FOR_IT.set(false);
    }

    @AfterAll
    static void stop() {
        OVER.countDown();
        SERVICE.stop(0);
        SILENT_SERVICE.stop(0);
    }

    @Test
    void theServiceContinuesTheCallersTraceFromTheGatewaysSpan() throws InterruptedException {
        String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
        String callerSpan = "00f067aa0ba902b7";
        // a public route to auth-service (OAuth metadata, spec 5.10): no key needed to reach the service
        client.get().uri("/.well-known/oauth-authorization-server")
                .header("traceparent", "00-" + traceId + "-" + callerSpan + "-01")
                .header("b3", traceId + "-" + callerSpan + "-1")
                .header("baggage", "tenant=another-project")
                .exchange().expectStatus().isOk();
        Map<String, List<String>> headers = RECEIVED.poll(10, TimeUnit.SECONDS);
        assertThat(headers).isNotNull();
        List<String> traceparent = headers.get("Traceparent");
        assertThat(traceparent).hasSize(1);
        assertThat(traceparent.get(0)).matches(TRACEPARENT);
        // the same trace, the gateway's span as parent (not the caller's span), sampled as the caller asked
        assertThat(traceparent.get(0)).startsWith("00-" + traceId + "-").doesNotContain(callerSpan).endsWith("-01");
        // the caller's other trace headers do not reach the service
        assertThat(headers).doesNotContainKey("B3").doesNotContainKey("Baggage");
    }

    @Test
    void aRequestWithoutTraceHeadersStillGivesTheServiceTheGatewaysTrace() throws InterruptedException {
        client.get().uri("/.well-known/oauth-authorization-server").exchange().expectStatus().isOk();
        Map<String, List<String>> headers = RECEIVED.poll(10, TimeUnit.SECONDS);
        assertThat(headers).isNotNull();
        assertThat(headers.get("Traceparent")).singleElement().asString().matches(TRACEPARENT);
    }

    @Test
    void hopByHopAndForwardedHeadersOfTheCallerDoNotReachTheService() throws InterruptedException {
        client.get().uri("/.well-known/oauth-authorization-server")
                .header("Connection", "keep-alive, X-Caller-Hop")
                .header("X-Caller-Hop", "1")
                .header("Keep-Alive", "timeout=5")
                .header("Proxy-Authorization", "Basic dXNlcjpwYXNz")
                .header("TE", "trailers")
                .header("Trailer", "X-Checksum")
                .header("Proxy-Connection", "keep-alive")
                .header("X-Application-Context", "caller")
                .header("Forwarded", "for=192.0.2.60;proto=http;by=203.0.113.43")
                .header("X-Forwarded-For", "192.0.2.60")
                .header("X-Forwarded-Host", "attacker.example")
                .header("X-End-To-End", "kept")
                .exchange().expectStatus().isOk();
        Map<String, List<String>> headers = lowerCased(RECEIVED.poll(10, TimeUnit.SECONDS));
        assertThat(headers).doesNotContainKeys("x-caller-hop", "keep-alive", "proxy-authorization", "te", "trailer",
                "proxy-connection", "x-application-context", "forwarded", "x-forwarded-for");
        assertThat(headers.get("connection")).as("the gateway's own connection header, if any")
                .satisfiesAnyOf(connection -> assertThat(connection).isNull(),
                        connection -> assertThat(String.join(",", connection)).doesNotContainIgnoringCase("x-caller-hop"));
        assertThat(headers).containsEntry("x-end-to-end", List.of("kept"));
        // the sign-in routes get the public origin as the gateway saw it, never the caller's X-Forwarded-Host
        assertThat(headers).containsEntry("x-forwarded-proto", List.of("http")).containsEntry("x-forwarded-host", List.of("localhost"));
    }

    @Test
    void hopByHopHeadersOfTheServicesAnswerDoNotReachTheCaller() {
        client.get().uri("/.well-known/oauth-authorization-server")
                .header(ANSWER_WITH_HOP_HEADERS, "yes")
                .exchange().expectStatus().isOk()
                .expectHeader().doesNotExist("X-Service-Hop")
                .expectHeader().doesNotExist("Keep-Alive")
                .expectHeader().doesNotExist("Proxy-Authenticate")
                .expectHeader().doesNotExist("X-Application-Context")
                .expectHeader().valueEquals("X-Service-End-To-End", "kept");
    }

    /**
     * The service's answer reaches the caller as the service gave it: any status code, its end-to-end headers and its
     * body; the service gets its own {@code Host}, never the caller's.
     */
    @Test
    void theServicesStatusHeadersAndBodyReachTheCallerAndTheServiceGetsItsOwnHost() throws InterruptedException {
        client.get().uri("/.well-known/oauth-authorization-server")
                .header(ANSWER_WITH_STATUS, "299")
                .header("Host", "caller.example")
                .exchange().expectStatus().isEqualTo(299)
                .expectHeader().contentType("application/json")
                .expectHeader().valueEquals("X-Service-End-To-End", "kept")
                .expectBody().json("{\"issuer\":\"https://suite.example.test\"}");
        Map<String, List<String>> headers = lowerCased(RECEIVED.poll(10, TimeUnit.SECONDS));
        assertThat(headers).containsEntry("host", List.of("127.0.0.1:" + SERVICE.getAddress().getPort()));
    }

    /**
     * No answer within {@code httpclient.response-timeout} (3 s in this test) is 504 in the error shape; a service that
     * answers in time is unaffected (the other tests).
     */
    @Test
    void aServiceThatDoesNotAnswerInTimeIs504() {
        client.get().uri("/.well-known/oauth-protected-resource/api/mcp")
                .exchange().expectStatus().isEqualTo(504)
                .expectBody().jsonPath("$.error").isEqualTo("unavailable");
    }

    /** The gateway's header filters: its own, and none of Spring Cloud Gateway's that copy every header once more. */
    @Test
    void theProxysHeaderFiltersAreTheGatewaysOwn() {
        assertThat(context.getBeansOfType(HttpHeadersFilter.class).values()).extracting(Object::getClass)
                .containsExactlyInAnyOrder(InternalTokenRelayFilter.class, HopByHopHeaders.ResponseFilter.class,
                        TransferEncodingNormalizationHeadersFilter.class);
        assertThat(HopByHopHeaders.REPLACED_FILTERS).noneMatch(context::containsBeanDefinition);
    }

    /**
     * The service gets the path and query as the caller spelled them, percent-encoding included ({@code ServiceUrlFilter}
     * builds the URL from the raw parts, as Spring Cloud Gateway's filter kept encoded parts encoded).
     */
    @Test
    void thePathAndQueryReachTheServiceAsTheCallerEncodedThem() throws InterruptedException {
        String path = "/.well-known/oauth-authorization-server/caf%C3%A9";
        String query = "q=a%20b&next=%2Fdocs%3Fx%3D1&empty=&flag";
        client.get().uri(URI.create("http://localhost:" + port + path + "?" + query)).exchange().expectStatus().isOk();
        URI received = RECEIVED_URIS.poll(10, TimeUnit.SECONDS);
        assertThat(received).isNotNull();
        assertThat(received.getRawPath()).isEqualTo(path);
        assertThat(received.getRawQuery()).isEqualTo(query);
        client.get().uri("/.well-known/oauth-authorization-server").exchange().expectStatus().isOk();
        URI withoutQuery = RECEIVED_URIS.poll(10, TimeUnit.SECONDS);
        assertThat(withoutQuery).isNotNull();
        assertThat(withoutQuery.getRawPath()).isEqualTo("/.well-known/oauth-authorization-server");
        assertThat(withoutQuery.getRawQuery()).isNull();
    }

    /**
     * Every request passes the proxy's global filters: only those its routes use are there (issue 24; the one that
     * refuses an {@code lb:} route stays, a scheme comparison), and the weighted routes' web filter is not.
     */
    @Test
    void theProxysGlobalFiltersAreTheOnesItsRoutesUse() {
        assertThat(context.getBeansOfType(GlobalFilter.class).values()).extracting(filter -> filter.getClass().getName())
                .containsExactlyInAnyOrder(ServiceUrlFilter.class.getName(), NettyRoutingFilter.class.getName(),
                        NettyWriteResponseFilter.class.getName(), RouteRequestTimer.class.getName(),
                        GatewayNoLoadBalancerClientAutoConfiguration.class.getName() + "$NoLoadBalancerClientFilter");
        assertThat(context.getBeanNamesForType(WeightCalculatorWebFilter.class)).isEmpty();
    }

    /**
     * An answer passes to the caller as it arrives, not read whole first: the first 70 KiB of a 100 KiB answer are read
     * before the service sends the rest.
     */
    @Test
    void aLongAnswerPassesAsItArrives() throws IOException {
        try (Socket socket = rawGet(ANSWER_IN_TWO_PARTS + ": long")) {
            StringBuilder read = new StringBuilder();
            readUntil(socket.getInputStream(), read, "\r\n\r\na");
            assertThat(SECOND_PART_WITHOUT_WAITING_FOR_IT).as("the answer's start came before its end").isFalse();
            SECOND_PART.countDown();
            String all = readUntil(socket.getInputStream(), read, "b".repeat(30 * 1024));
            assertThat(all.substring(all.indexOf("\r\n\r\n") + 4)).hasSize(100 * 1024);
        }
    }

    /** An event stream (an MCP answer) passes event by event: the first is read before the service sends the second. */
    @Test
    void anEventStreamPassesEventByEvent() throws IOException {
        try (Socket socket = rawGet(ANSWER_IN_TWO_PARTS + ": events")) {
            StringBuilder read = new StringBuilder();
            assertThat(readUntil(socket.getInputStream(), read, "data: one")).containsIgnoringCase("content-type: text/event-stream");
            assertThat(SECOND_PART_WITHOUT_WAITING_FOR_IT).as("the first event came before the second").isFalse();
            SECOND_PART.countDown();
            assertThat(readUntil(socket.getInputStream(), read, "data: two")).contains("data: one\n\n");
        }
    }

    private static Map<String, List<String>> lowerCased(Map<String, List<String>> headers) {
        assertThat(headers).as("the request reached the service").isNotNull();
        Map<String, List<String>> lower = new HashMap<>();
        headers.forEach((name, values) -> lower.put(name.toLowerCase(Locale.ROOT), values));
        return lower;
    }

    private static HttpServer service() {
        return StubServices.start(Map.of("/", exchange -> {
            RECEIVED.add(Map.copyOf(exchange.getRequestHeaders()));
            RECEIVED_URIS.add(exchange.getRequestURI());
            if (exchange.getRequestHeaders().containsKey(ANSWER_WITH_HOP_HEADERS)) {
                exchange.getResponseHeaders().add("Connection", "X-Service-Hop");
                exchange.getResponseHeaders().add("X-Service-Hop", "1");
                exchange.getResponseHeaders().add("Keep-Alive", "timeout=5");
                exchange.getResponseHeaders().add("Proxy-Authenticate", "Basic realm=\"service\"");
                exchange.getResponseHeaders().add("X-Application-Context", "service");
                exchange.getResponseHeaders().add("X-Service-End-To-End", "kept");
            }
            String parts = exchange.getRequestHeaders().getFirst(ANSWER_IN_TWO_PARTS);
            if (parts != null) {
                answerInTwoParts(exchange, parts);
                return;
            }
            String status = exchange.getRequestHeaders().getFirst(ANSWER_WITH_STATUS);
            if (status != null) {
                exchange.getResponseHeaders().add("X-Service-End-To-End", "kept");
            }
            StubServices.answerJson(exchange, status == null ? 200 : Integer.parseInt(status),
                    "{\"issuer\":\"https://suite.example.test\"}");
        }));
    }

    /**
     * Sends the answer's first part (the headers and 70 KiB of a 100 KiB body for {@code long}, one event of an event
     * stream for {@code events}), then the rest once the test counted {@link #SECOND_PART} down, or after a while
     * without it (noted in {@link #SECOND_PART_WITHOUT_WAITING_FOR_IT}).
     */
    private static void answerInTwoParts(HttpExchange exchange, String parts) throws IOException {
        boolean events = parts.equals("events");
        exchange.getResponseHeaders().add("Content-Type", events ? "text/event-stream" : "text/plain");
        byte[] first = (events ? "data: one\n\n" : "a".repeat(70 * 1024)).getBytes(StandardCharsets.UTF_8);
        byte[] second = (events ? "data: two\n\n" : "b".repeat(30 * 1024)).getBytes(StandardCharsets.UTF_8);
        // an event stream is chunked (0), the long answer has its length
        exchange.sendResponseHeaders(200, events ? 0 : first.length + second.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(first);
            out.flush();
            try {
                SECOND_PART_WITHOUT_WAITING_FOR_IT.set(!SECOND_PART.await(10, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            out.write(second);
        }
    }

    /** A raw HTTP/1.1 GET of a public route to auth-service (the test's service) with {@code header}; the caller reads. */
    private Socket rawGet(String header) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(20_000);
        socket.getOutputStream().write(("GET /.well-known/oauth-authorization-server HTTP/1.1\r\nHost: localhost\r\n"
                + header + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        return socket;
    }

    /** Reads from {@code in} until the text read so far contains {@code wanted}; answers that text. */
    private static String readUntil(InputStream in, StringBuilder read, String wanted) throws IOException {
        byte[] buffer = new byte[16 * 1024];
        while (!read.toString().contains(wanted)) {
            int n = in.read(buffer);
            assertThat(n).as("the answer goes on until " + wanted).isPositive();
            read.append(new String(buffer, 0, n, StandardCharsets.ISO_8859_1));
        }
        return read.toString();
    }

    private static HttpServer silentService() {
        return StubServices.start(Map.of("/", exchange -> {
            try {
                OVER.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            StubServices.answerJson(exchange, 200, "{}");
        }));
    }
}
