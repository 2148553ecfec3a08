package dev.visibility.gateway.cors;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

/**
 * CORS at the edge (spec 5.9: cross-origin requests from any origin when a valid key is supplied):
 * a preflight is answered here, without a key and without reaching authentication; an actual
 * request goes on (the key is checked after this filter) with the headers that let a browser read
 * the answer, the rate-limit headers of spec 7 included.
 */
class CorsWebFilterTest {

    private static final String ORIGIN = "https://app.customer.example";
    private static final String API = "/api/v2/projects/9197b499-0b8e-4d8e-9a55-2f8f5c6f7a10/actions/list";

    private final CorsWebFilter filter = new CorsWebFilter();

    @Test
    void aPreflightIsAnsweredHereWith204AndTheAllowedMethodsAndHeaders() {
        Outcome outcome = call(MockServerHttpRequest.options(API).header(HttpHeaders.ORIGIN, ORIGIN)
                .header(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD, "PATCH")
                .header(HttpHeaders.ACCESS_CONTROL_REQUEST_HEADERS, "Authorization, Content-Type"));
        assertThat(outcome.passed()).as("a preflight never reaches authentication").isFalse();
        assertThat(outcome.exchange().getResponse().getStatusCode().value()).isEqualTo(204);
        HttpHeaders headers = outcome.headers();
        assertThat(headers.getFirst(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN)).isEqualTo("*");
        assertThat(headers.getFirst(HttpHeaders.ACCESS_CONTROL_ALLOW_METHODS)).isEqualTo("GET, POST, PATCH, DELETE, OPTIONS");
        assertThat(split(headers.getFirst(HttpHeaders.ACCESS_CONTROL_ALLOW_HEADERS)))
                .contains("Authorization", "Content-Type", "Accept");
        assertThat(headers.getFirst(HttpHeaders.ACCESS_CONTROL_MAX_AGE)).isEqualTo("600");
        // credentials travel in the Authorization header, never in cookies: no credentialed CORS
        assertThat(headers.containsHeader(HttpHeaders.ACCESS_CONTROL_ALLOW_CREDENTIALS)).isFalse();
    }

    @Test
    void anActualRequestGoesOnWithTheOriginAllowedAndTheRateLimitHeadersExposed() {
        Outcome outcome = call(MockServerHttpRequest.get(API).header(HttpHeaders.ORIGIN, ORIGIN));
        assertThat(outcome.passed()).isTrue();
        assertThat(outcome.headers().getFirst(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN)).isEqualTo("*");
        assertThat(split(outcome.headers().getFirst(HttpHeaders.ACCESS_CONTROL_EXPOSE_HEADERS)))
                .contains("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "Retry-After");
        assertThat(outcome.headers().containsHeader(HttpHeaders.ACCESS_CONTROL_ALLOW_METHODS)).isFalse();
    }

    @Test
    void anOptionsRequestWithoutARequestedMethodIsNoPreflightAndGoesOn() {
        Outcome outcome = call(MockServerHttpRequest.options(API).header(HttpHeaders.ORIGIN, ORIGIN));
        assertThat(outcome.passed()).isTrue();
        assertThat(outcome.headers().getFirst(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN)).isEqualTo("*");
        assertThat(outcome.headers().containsHeader(HttpHeaders.ACCESS_CONTROL_MAX_AGE)).isFalse();
    }

    @Test
    void theWellKnownDocumentsAreReadableCrossOrigin() {
        Outcome outcome = call(MockServerHttpRequest.get("/.well-known/oauth-protected-resource").header(HttpHeaders.ORIGIN, ORIGIN));
        assertThat(outcome.passed()).isTrue();
        assertThat(outcome.headers().getFirst(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN)).isEqualTo("*");
    }

    @Test
    void aRequestWithoutOriginOrOutsideTheApiGetsNoCorsHeaders() {
        for (MockServerHttpRequest.BaseBuilder<?> request : List.<MockServerHttpRequest.BaseBuilder<?>>of(
                MockServerHttpRequest.get(API),
                MockServerHttpRequest.get("/actuator/health").header(HttpHeaders.ORIGIN, ORIGIN),
                MockServerHttpRequest.options("/actuator/health").header(HttpHeaders.ORIGIN, ORIGIN)
                        .header(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD, "GET"))) {
            Outcome outcome = call(request);
            assertThat(outcome.passed()).isTrue();
            assertThat(outcome.headers().headerNames()).noneMatch(name -> name.toLowerCase(java.util.Locale.ROOT).startsWith("access-control-"));
        }
    }

    private record Outcome(MockServerWebExchange exchange, boolean passed) {

        HttpHeaders headers() {
            return exchange.getResponse().getHeaders();
        }
    }

    private Outcome call(MockServerHttpRequest.BaseBuilder<?> request) {
        MockServerWebExchange exchange = MockServerWebExchange.from(request);
        AtomicBoolean passed = new AtomicBoolean();
        filter.filter(exchange, ex -> {
            passed.set(true);
            return ex.getResponse().setComplete();
        }).block(Duration.ofSeconds(5));
        return new Outcome(exchange, passed.get());
    }

    private static List<String> split(String list) {
        assertThat(list).isNotNull();
        return List.of(list.split(",\\s*"));
    }
}
