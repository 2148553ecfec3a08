package dev.visibility.gateway.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import dev.visibility.gateway.routing.RouteResolver;
import dev.visibility.platform.error.reactive.ReactiveErrorWriter;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * The authentication filter (spec 5.1, issue 15): one identical 401 for every bad credential, the
 * decoded path decides what is under {@code /api}, and failed authentications are limited per
 * client address before any lookup, while keys the gateway already knows keep working.
 */
class AuthenticationWebFilterTest {

    private static final String KEY = "svc_live_" + "0123456789abcdef".repeat(4);
    private static final String PATH = "/api/v2/projects/p1/usage";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Lookups lookups = new Lookups();
    private final EdgeAuthProperties properties =
            new EdgeAuthProperties("svc", Duration.ofSeconds(30), Duration.ofSeconds(5), Duration.ofSeconds(3), 1000L, 3);
    private final AuthenticationWebFilter filter = new AuthenticationWebFilter(properties,
            new CredentialCache(lookups, properties, System::nanoTime), new RouteResolver(), new ReactiveErrorWriter(JSON));

    @Test
    void aKnownKeyPassesWithItsPrincipal() {
        Outcome outcome = call("10.0.0.1", PATH, KEY);
        assertThat(outcome.principal()).isNotNull();
        assertThat(outcome.principal().projectId()).isEqualTo("p1");
        assertThat(outcome.status()).isNull();
    }

    @Test
    void afterItsFailuresAnAddressGets429WithoutLookupsButKnownKeysStillPass() {
        assertThat(call("10.0.0.2", PATH, KEY).principal()).isNotNull();
        for (int i = 0; i < 3; i++) {
            Outcome refused = call("10.0.0.2", PATH, "svc_live_" + Integer.toString(i).repeat(64));
            assertThat(refused.status()).isEqualTo(401);
            assertThat(refused.body()).containsEntry("error", "unauthorized").containsEntry("status", 401);
        }
        int lookupsBefore = lookups.count.get();

        Outcome limited = call("10.0.0.2", PATH, "svc_live_" + "9".repeat(64));
        assertThat(limited.status()).isEqualTo(429);
        assertThat(limited.body()).containsEntry("error", "rate_limited").containsEntry("status", 429);
        assertThat(limited.exchange().getResponse().getHeaders().getFirst("X-RateLimit-Limit")).isEqualTo("3");
        assertThat(limited.exchange().getResponse().getHeaders().getFirst("X-RateLimit-Remaining")).isEqualTo("0");
        long reset = Long.parseLong(limited.exchange().getResponse().getHeaders().getFirst("X-RateLimit-Reset"));
        assertThat(reset).isGreaterThan(System.currentTimeMillis() / 1000).isLessThanOrEqualTo(System.currentTimeMillis() / 1000 + 60);
        assertThat(Long.parseLong(limited.exchange().getResponse().getHeaders().getFirst("Retry-After"))).isBetween(1L, 60L);
        // no credential at all is refused the same way, before anything is looked up
        assertThat(call("10.0.0.2", PATH, null).status()).isEqualTo(429);
        assertThat(lookups.count).hasValue(lookupsBefore);

        // the real key, already known to this gateway, is not starved
        assertThat(call("10.0.0.2", PATH, KEY).principal()).isNotNull();
        // another address has its own budget
        assertThat(call("10.0.0.3", PATH, "svc_live_" + "8".repeat(64)).status()).isEqualTo(401);
    }

    @Test
    void anEncodedSpellingOfApiIsAuthenticatedToo() {
        assertThat(call("10.0.0.4", "/%61pi/v2/projects/p1/usage", null).status()).isEqualTo(401);
        assertThat(call("10.0.0.4", "/api;x=1/v2/projects/p1/usage", null).status()).isEqualTo(401);
        assertThat(AuthenticationWebFilter.underApi("/api")).isTrue();
        assertThat(AuthenticationWebFilter.underApi("/apix/v2")).isFalse();
        assertThat(AuthenticationWebFilter.underApi("/.well-known/oauth-protected-resource/api/mcp")).isFalse();
    }

    private Outcome call(String address, String path, String key) {
        MockServerHttpRequest.BaseBuilder<?> request = MockServerHttpRequest.method(HttpMethod.GET, URI.create(path))
                .remoteAddress(new InetSocketAddress(address, 40000));
        if (key != null) {
            request.header("Authorization", "Bearer " + key);
        }
        MockServerWebExchange exchange = MockServerWebExchange.from(request);
        AtomicReference<EdgePrincipal> passed = new AtomicReference<>();
        filter.filter(exchange, ex -> {
            passed.set(ex.getAttribute(EdgePrincipal.ATTRIBUTE));
            return ex.getResponse().setComplete();
        }).block(Duration.ofSeconds(5));
        Integer status = passed.get() != null || exchange.getResponse().getStatusCode() == null ? null
                : exchange.getResponse().getStatusCode().value();
        String body = exchange.getResponse().getBodyAsString().block(Duration.ofSeconds(5));
        @SuppressWarnings("unchecked")
        Map<String, Object> parsed = body == null || body.isEmpty() ? Map.of()
                : JSON.readValue(body.getBytes(StandardCharsets.UTF_8), Map.class);
        return new Outcome(exchange, passed.get(), status, parsed);
    }

    private record Outcome(MockServerWebExchange exchange, EdgePrincipal principal, Integer status, Map<String, Object> body) {
    }

    /** auth-service's answers: one key of project p1 is known, every other hash is unknown. */
    private static final class Lookups implements CredentialLookups {

        final AtomicInteger count = new AtomicInteger();

        @Override
        public Mono<Optional<AuthServiceClient.KeyLookup>> apiKey(String sha256Hex) {
            count.incrementAndGet();
            if (sha256Hex.equals(Credentials.sha256Hex(KEY))) {
                return Mono.just(Optional.of(new AuthServiceClient.KeyLookup("k1", "p1", "a1", "demo", Set.of("actions.read"),
                        Set.of(), "plus", true, false)));
            }
            return Mono.just(Optional.empty());
        }

        @Override
        public Mono<Optional<AuthServiceClient.MemberLookup>> memberToken(String sha256Hex) {
            count.incrementAndGet();
            return Mono.just(Optional.empty());
        }
    }
}
