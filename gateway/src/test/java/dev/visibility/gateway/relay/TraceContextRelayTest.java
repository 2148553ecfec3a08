package dev.visibility.gateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpServer;
import dev.visibility.gateway.routing.RouteTable;
import dev.visibility.gateway.support.StubServices;
import dev.visibility.platform.testing.RunningServerTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Traces across the gateway (docs/operations.md, Traces; issue 24): with Spring Cloud Gateway's
 * own client observation off, the service still gets a W3C {@code traceparent}: the gateway's span
 * of the request, in the caller's trace when the caller sent one, never the caller's own header.
 * The service behind is a plain HTTP server that records what it receives.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class TraceContextRelayTest extends RunningServerTest {

    private static final String TRACEPARENT = "^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$";
    private static final BlockingQueue<Map<String, List<String>>> RECEIVED = new LinkedBlockingQueue<>();
    private static final HttpServer SERVICE = service();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        StubServices.allDown(registry);
        registry.add("suite.services." + RouteTable.AUTH, () -> "http://127.0.0.1:" + SERVICE.getAddress().getPort());
    }

    @BeforeEach
    void forgetReceived() {
        RECEIVED.clear();
    }

    @AfterAll
    static void stop() {
        SERVICE.stop(0);
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

    private static HttpServer service() {
        return StubServices.start(Map.of("/", exchange -> {
            RECEIVED.add(Map.copyOf(exchange.getRequestHeaders()));
            StubServices.answerJson(exchange, 200, "{\"issuer\":\"https://suite.example.test\"}");
        }));
    }
}
