package dev.visibility.gateway.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.visibility.gateway.auth.EdgePrincipal;
import dev.visibility.gateway.routing.ApiRoute;
import dev.visibility.gateway.routing.RouteResolver;
import dev.visibility.platform.error.reactive.ReactiveErrorWriter;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import tools.jackson.databind.json.JsonMapper;

/**
 * The gateway's project and scope check (spec 5.4, 5.8, 7; issue 15): the project is read from the
 * decoded path, as routing reads it, so no spelling of another project's id passes; a known path
 * with another method is 405 with {@code Allow}; a missing scope or feature is 403 with its reason.
 */
class AccessWebFilterTest {

    private static final String OWN = "9197b499-0b8e-4d8e-9a55-2f8f5c6f7a10";
    private static final String OTHER = "6c31354f-db9b-4272-b7c5-d1c7b59505ff";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final AccessWebFilter filter = new AccessWebFilter(new RouteResolver(), new ReactiveErrorWriter(JSON));
    private final EdgePrincipal key = new EdgePrincipal(EdgePrincipal.Kind.API_KEY, "k1", OWN, "a1",
            Set.of("actions.read", "webhooks.read"), Set.of(), "plus", true, false);

    @Test
    void theOwnProjectPassesWithItsRoute() {
        Outcome outcome = call(HttpMethod.GET, "/api/v2/projects/" + OWN + "/actions/list", key);
        assertThat(outcome.passed()).isTrue();
        assertThat(((ApiRoute) outcome.exchange().getAttribute(AccessWebFilter.ROUTE_ATTRIBUTE)).id()).isEqualTo("e3-actions-list");
    }

    @Test
    void anotherProjectIs404InEverySpellingThatRoutingDecodes() {
        for (String path : new String[] {"/api/v2/projects/" + OTHER + "/actions/list", "/api/v2/%70rojects/" + OTHER + "/actions/list",
                "/api/%762/projects/" + OTHER + "/usage", "/api/v2/projects;x=1/" + OTHER + "/usage",
                "/api/v2/projects/%36c31354f-db9b-4272-b7c5-d1c7b59505ff/webhooks", "/api/v2/projects/" + OWN.toUpperCase() + "/usage"}) {
            Outcome outcome = call(HttpMethod.GET, path, key);
            assertThat(outcome.passed()).as(path).isFalse();
            assertThat(outcome.status()).as(path).isEqualTo(404);
            assertThat(outcome.body()).containsEntry("error", "not_found").containsEntry("status", 404);
        }
        // another project's path with a method no route has is still 404, never a hint that it exists
        assertThat(call(HttpMethod.PUT, "/api/v2/projects/" + OTHER + "/webhooks", key).status()).isEqualTo(404);
    }

    @Test
    void aKnownPathWithAnotherMethodIs405WithAllow() {
        Outcome outcome = call(HttpMethod.PUT, "/api/v2/projects/" + OWN + "/webhooks", key);
        assertThat(outcome.status()).isEqualTo(405);
        assertThat(outcome.body()).containsEntry("error", "method_not_allowed");
        assertThat(outcome.exchange().getResponse().getHeaders().getFirst("Allow")).isEqualTo("POST, GET");
    }

    @Test
    void aMissingScopeOrFeatureIs403WithItsReason() {
        Outcome scope = call(HttpMethod.POST, "/api/v2/projects/" + OWN + "/webhooks", key);
        assertThat(scope.status()).isEqualTo(403);
        assertThat(scope.body()).containsEntry("reason", "missing_scope");
        Outcome feature = call(HttpMethod.GET, "/api/v2/projects/" + OWN + "/agent-picks/tests/t/runs/r",
                new EdgePrincipal(EdgePrincipal.Kind.API_KEY, "k1", OWN, "a1", Set.of("visibility.read"), Set.of(), "plus", true, false));
        assertThat(feature.status()).isEqualTo(403);
        assertThat(feature.body()).containsEntry("reason", "feature_not_enabled");
    }

    /**
     * Issue 19, DESIGN.md "Outcomes, traffic, agents": E9 and E10 errors always carry a reason; the
     * gateway's scope refusal on them is {@code missing_scope} (agents.* are explicit grants, spec 5.6,
     * so a key with the default scopes lacks them).
     */
    @Test
    void theAgentsRoutesRefuseAKeyWithoutTheirScopeWithReasonMissingScope() {
        String threads = "/api/v2/projects/" + OWN + "/agents/assistant/threads/0b6f1f5e-2a7c-4d3b-9e8f-1a2b3c4d5e6f";
        EdgePrincipal defaults = new EdgePrincipal(EdgePrincipal.Kind.API_KEY, "k1", OWN, "a1",
                Set.of("visibility.read", "actions.read", "traffic.read"), Set.of(), "plus", true, false);
        for (var request : Map.of(threads + "/handoffs", HttpMethod.GET, threads, HttpMethod.DELETE,
                "/api/v2/projects/" + OWN + "/agents/runs/0b6f1f5e-2a7c-4d3b-9e8f-1a2b3c4d5e6f", HttpMethod.GET).entrySet()) {
            Outcome outcome = call(request.getValue(), request.getKey(), defaults);
            assertThat(outcome.status()).as(request.getKey()).isEqualTo(403);
            assertThat(outcome.body()).as(request.getKey()).containsEntry("error", "forbidden").containsEntry("reason", "missing_scope");
        }
        // agents.read reads handoffs but does not delete: E10 needs agents.run
        EdgePrincipal reader = new EdgePrincipal(EdgePrincipal.Kind.API_KEY, "k1", OWN, "a1", Set.of("agents.read"), Set.of(),
                "plus", true, false);
        assertThat(call(HttpMethod.GET, threads + "/handoffs", reader).passed()).isTrue();
        Outcome delete = call(HttpMethod.DELETE, threads, reader);
        assertThat(delete.status()).isEqualTo(403);
        assertThat(delete.body()).containsEntry("reason", "missing_scope");
        assertThat(call(HttpMethod.DELETE, threads, new EdgePrincipal(EdgePrincipal.Kind.API_KEY, "k1", OWN, "a1",
                Set.of("agents.run"), Set.of(), "plus", true, false)).passed()).isTrue();
    }

    private record Outcome(MockServerWebExchange exchange, boolean passed, Integer status, Map<String, Object> body) {
    }

    @SuppressWarnings("unchecked")
    private Outcome call(HttpMethod method, String path, EdgePrincipal principal) {
        MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.method(method, URI.create(path)));
        exchange.getAttributes().put(EdgePrincipal.ATTRIBUTE, principal);
        AtomicBoolean passed = new AtomicBoolean();
        filter.filter(exchange, ex -> {
            passed.set(true);
            return ex.getResponse().setComplete();
        }).block(Duration.ofSeconds(5));
        if (passed.get()) {
            return new Outcome(exchange, true, null, Map.of());
        }
        String body = exchange.getResponse().getBodyAsString().block(Duration.ofSeconds(5));
        return new Outcome(exchange, false, exchange.getResponse().getStatusCode().value(),
                JSON.readValue(body.getBytes(StandardCharsets.UTF_8), Map.class));
    }
}
