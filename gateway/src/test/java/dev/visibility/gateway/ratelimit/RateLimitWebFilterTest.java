package dev.visibility.gateway.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.visibility.gateway.auth.EdgePrincipal;
import dev.visibility.gateway.usage.UsageRecorder;
import dev.visibility.platform.error.ErrorCode;
import dev.visibility.platform.error.Unavailable;
import dev.visibility.platform.error.reactive.ReactiveErrorWriter;
import dev.visibility.platform.testing.JsonShapes;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * The per-key rate limit (spec 7, DESIGN.md "Edge" 4): {@code X-RateLimit-Limit} (requests per
 * window), {@code X-RateLimit-Remaining} (left in this window) and {@code X-RateLimit-Reset} (Unix
 * seconds at which the window ends) on every answer of an authenticated caller, errors included;
 * over the limit, 429 in the error shape of spec 7 ({@code rate_limited}) with {@code Retry-After}
 * (seconds to the window's end), and the request goes no further. The limiter is the real
 * in-memory one; the usage recorder counts in memory and is never started, so it publishes nothing.
 */
class RateLimitWebFilterTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String PROJECT = "9197b499-0b8e-4d8e-9a55-2f8f5c6f7a10";
    private static final Duration WINDOW = Duration.ofMinutes(1);

    private final RateLimitProperties properties = new RateLimitProperties("local", WINDOW,
            Map.of("free", 3, "plus", 5), 4, null, null, null, null);
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final RateLimitWebFilter filter = filter(new LocalRateLimiter(WINDOW, Clock.systemUTC()));

    private RateLimitWebFilter filter(RateLimiter limiter) {
        return new RateLimitWebFilter(limiter, properties, new UsageRecorder(null, Duration.ofHours(1)),
                new ReactiveErrorWriter(JSON), meters);
    }

    private double decisions(String outcome, String store) {
        return meters.get(RateLimitWebFilter.DECISIONS).tag("outcome", outcome).tag("store", store).counter().count();
    }

    private static EdgePrincipal key(String id, String plan) {
        return new EdgePrincipal(EdgePrincipal.Kind.API_KEY, id, PROJECT, "a1", Set.of("actions.read"), Set.of(), plan, true, false);
    }

    @Test
    void everyAdmittedAnswerCarriesTheLimitWhatIsLeftAndTheWindowsEnd() {
        EdgePrincipal key = key("k-admitted", "plus");
        for (int n = 1; n <= 5; n++) {
            long before = System.currentTimeMillis();
            Outcome outcome = call(filter, key, HttpStatus.OK);
            long after = System.currentTimeMillis();
            assertThat(outcome.passed()).isTrue();
            assertThat(outcome.header(RateLimitWebFilter.LIMIT)).isEqualTo("5");
            assertThat(outcome.header(RateLimitWebFilter.REMAINING)).isEqualTo(String.valueOf(5 - n));
            // the end of the fixed one-minute window the request fell in, in Unix seconds
            assertThat(Long.parseLong(outcome.header(RateLimitWebFilter.RESET)))
                    .isBetween(windowEnd(before), windowEnd(after));
            assertThat(outcome.header(HttpHeaders.RETRY_AFTER)).isNull();
        }
    }

    @Test
    void theHeadersAreOnTheDownstreamsErrorAnswersToo() {
        Outcome outcome = call(filter, key("k-error", "plus"), HttpStatus.NOT_FOUND);
        assertThat(outcome.passed()).isTrue();
        assertThat(outcome.exchange().getResponse().getStatusCode().value()).isEqualTo(404);
        assertThat(outcome.header(RateLimitWebFilter.LIMIT)).isEqualTo("5");
        assertThat(outcome.header(RateLimitWebFilter.REMAINING)).isEqualTo("4");
        assertThat(outcome.header(RateLimitWebFilter.RESET)).isNotNull();
    }

    @Test
    void overTheLimitIs429InTheErrorShapeWithRetryAfterAndGoesNoFurther() {
        EdgePrincipal key = key("k-over", "free");
        for (int n = 1; n <= 3; n++) {
            assertThat(call(filter, key, HttpStatus.OK).passed()).isTrue();
        }
        long before = System.currentTimeMillis();
        Outcome refused = call(filter, key, HttpStatus.OK);
        long after = System.currentTimeMillis();

        assertThat(refused.passed()).isFalse();
        assertThat(refused.exchange().getResponse().getStatusCode().value()).isEqualTo(429);
        assertThat(refused.header(HttpHeaders.CONTENT_TYPE)).startsWith("application/json");
        Map<String, Object> body = JsonShapes.assertError(refused.body(), 429, "rate_limited");
        JsonShapes.assertFields(body, "error", "message", "status");
        assertThat(refused.header(RateLimitWebFilter.LIMIT)).isEqualTo("3");
        assertThat(refused.header(RateLimitWebFilter.REMAINING)).isEqualTo("0");
        long reset = Long.parseLong(refused.header(RateLimitWebFilter.RESET));
        assertThat(reset).isBetween(windowEnd(before), windowEnd(after));
        // Retry-After: whole seconds until the window ends, at least 1
        long retryAfter = Long.parseLong(refused.header(HttpHeaders.RETRY_AFTER));
        assertThat(retryAfter).isBetween(Math.max(1, reset - after / 1000), Math.max(1, reset - before / 1000))
                .isBetween(1L, WINDOW.toSeconds());
        assertThat((String) body.get("message")).contains("retry after " + retryAfter + " s");
    }

    @Test
    void eachKeyHasItsOwnWindowAndEachPlanItsLimit() {
        EdgePrincipal spent = key("k-spent", "free");
        for (int n = 1; n <= 4; n++) {
            call(filter, spent, HttpStatus.OK);
        }
        assertThat(call(filter, spent, HttpStatus.OK).passed()).isFalse();
        Outcome other = call(filter, key("k-fresh", "free"), HttpStatus.OK);
        assertThat(other.passed()).isTrue();
        assertThat(other.header(RateLimitWebFilter.REMAINING)).isEqualTo("2");
        // a plan without a limit of its own gets the free plan's
        assertThat(call(filter, key("k-unknown-plan", "platinum"), HttpStatus.OK).header(RateLimitWebFilter.LIMIT)).isEqualTo("3");
        EdgePrincipal member = new EdgePrincipal(EdgePrincipal.Kind.MEMBER, "m1", null, "a1", Set.of(), Set.of(), null, true, false);
        assertThat(call(filter, member, HttpStatus.OK).header(RateLimitWebFilter.LIMIT)).isEqualTo("4");
    }

    @Test
    void anUnauthenticatedRequestIsNotCounted() {
        Outcome outcome = call(filter, null, HttpStatus.OK);
        assertThat(outcome.passed()).isTrue();
        assertThat(outcome.header(RateLimitWebFilter.LIMIT)).isNull();
        assertThat(outcome.header(RateLimitWebFilter.REMAINING)).isNull();
        assertThat(decisions("allowed", "local") + decisions("refused", "local")).isZero();
    }

    /** Issue 23: each decision is counted once, by outcome and by the store that took it. */
    @Test
    void everyDecisionIsCountedByOutcomeAndStore() {
        EdgePrincipal key = key("k-counted", "free");
        // every counter exists from the start (a scrape shows zeros, not nothing)
        for (String store : new String[] {"shared", "local", "fallback"}) {
            assertThat(decisions("allowed", store)).isZero();
            assertThat(decisions("refused", store)).isZero();
        }
        for (int n = 1; n <= 5; n++) {
            call(filter, key, HttpStatus.OK);
        }
        // the free plan admits 3 in the window (spec 7): 3 allowed, then 2 refused with 429
        assertThat(decisions("allowed", "local")).isEqualTo(3);
        assertThat(decisions("refused", "local")).isEqualTo(2);
        assertThat(decisions("allowed", "shared") + decisions("refused", "shared")).isZero();
        assertThat(decisions("allowed", "fallback") + decisions("refused", "fallback")).isZero();
    }

    /** Issue 23: decisions of the shared store and of the local fallback (Redis down, issue 22) are told apart. */
    @Test
    void decisionsOfTheSharedStoreAndOfTheFallbackAreToldApart() {
        AtomicBoolean storeUp = new AtomicBoolean(true);
        LocalRateLimiter sharedWindows = new LocalRateLimiter(WINDOW, Clock.systemUTC());
        RateLimiter shared = (k, limit) -> storeUp.get()
                ? sharedWindows.consume(k, limit).map(d -> new RateLimiter.Decision(d.allowed(), d.limit(), d.remaining(),
                        d.resetAt(), RateLimiter.Store.SHARED))
                : Mono.error(new IllegalStateException("redis: connection refused"));
        FallbackRateLimiter limiter = new FallbackRateLimiter(shared, () -> Mono.error(new IllegalStateException("still down")),
                new LocalRateLimiter(WINDOW, Clock.systemUTC()), 1, Duration.ofHours(1), Duration.ofSeconds(1), Clock.systemUTC());
        RateLimitWebFilter counted = filter(limiter);
        EdgePrincipal key = key("k-stores", "plus");

        call(counted, key, HttpStatus.OK);
        call(counted, key, HttpStatus.OK);
        assertThat(decisions("allowed", "shared")).isEqualTo(2);
        storeUp.set(false);
        // Redis down: this replica decides, with its own window of 5 (plus plan, one replica)
        for (int n = 1; n <= 6; n++) {
            call(counted, key, HttpStatus.OK);
        }
        assertThat(decisions("allowed", "fallback")).isEqualTo(5);
        assertThat(decisions("refused", "fallback")).isEqualTo(1);
        assertThat(decisions("allowed", "shared")).isEqualTo(2);
        assertThat(decisions("refused", "shared")).isZero();
        assertThat(decisions("allowed", "local") + decisions("refused", "local")).isZero();
    }

    @Test
    void aStoreThatCannotAnswerIs503NotAPass() {
        RateLimitWebFilter withoutStore = filter((key, limit) -> Mono.error(new IllegalStateException("redis: connection refused")));
        MockServerWebExchange exchange = MockServerWebExchange.from(
                MockServerHttpRequest.get("/api/v2/projects/" + PROJECT + "/actions/list"));
        exchange.getAttributes().put(EdgePrincipal.ATTRIBUTE, key("k-store", "plus"));
        AtomicBoolean passed = new AtomicBoolean();
        // the platform's error handler renders it: 503 unavailable, without the store's own message
        assertThatThrownBy(() -> withoutStore.filter(exchange, ex -> {
            passed.set(true);
            return ex.getResponse().setComplete();
        }).block(Duration.ofSeconds(5))).isInstanceOfSatisfying(Unavailable.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.UNAVAILABLE);
            assertThat(e.getMessage()).doesNotContain("redis");
        });
        assertThat(passed).isFalse();
    }

    private static long windowEnd(long millis) {
        long windowMillis = WINDOW.toMillis();
        return (millis - millis % windowMillis + windowMillis) / 1000;
    }

    private record Outcome(MockServerWebExchange exchange, boolean passed) {

        String header(String name) {
            return exchange.getResponse().getHeaders().getFirst(name);
        }

        @SuppressWarnings("unchecked")
        Map<String, Object> body() {
            String text = exchange.getResponse().getBodyAsString().block(Duration.ofSeconds(5));
            return JSON.readValue(text.getBytes(StandardCharsets.UTF_8), Map.class);
        }
    }

    /** Runs the filter; the rest of the chain answers {@code downstream}. */
    private static Outcome call(RateLimitWebFilter filter, EdgePrincipal principal, HttpStatus downstream) {
        MockServerWebExchange exchange = MockServerWebExchange.from(
                MockServerHttpRequest.get("/api/v2/projects/" + PROJECT + "/actions/list"));
        if (principal != null) {
            exchange.getAttributes().put(EdgePrincipal.ATTRIBUTE, principal);
        }
        AtomicBoolean passed = new AtomicBoolean();
        filter.filter(exchange, ex -> {
            passed.set(true);
            ex.getResponse().setStatusCode(downstream);
            return ex.getResponse().setComplete();
        }).block(Duration.ofSeconds(5));
        return new Outcome(exchange, passed.get());
    }
}
