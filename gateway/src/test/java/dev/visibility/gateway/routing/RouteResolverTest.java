package dev.visibility.gateway.routing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

/** The one route table: path and method decide the route, and with it the scope (DESIGN.md scope table). */
class RouteResolverTest {

    private final RouteResolver resolver = new RouteResolver();
    private static final String P = "/api/v2/projects/7c1f0e4a-3b2d-4e5f-8a9b-0c1d2e3f4a5b";

    @Test
    void resolvesEndpointsToTheirScopes() {
        assertThat(resolver.resolve("GET", P + "/actions/list").scope()).isEqualTo("actions.read");
        assertThat(resolver.resolve("PATCH", P + "/actions/abc").scope()).isEqualTo("actions.write");
        assertThat(resolver.resolve("GET", P + "/actions/abc/brief").scope()).isEqualTo("actions.read");
        assertThat(resolver.resolve("GET", P + "/webhooks").scope()).isEqualTo("webhooks.read");
        assertThat(resolver.resolve("POST", P + "/webhooks").scope()).isEqualTo("webhooks.write");
        assertThat(resolver.resolve("DELETE", P + "/agents/assistant/threads/t1").scope()).isEqualTo("agents.run");
        assertThat(resolver.resolve("GET", P + "/intelligence/what-works").service()).isEqualTo(RouteTable.OUTCOMES);
        assertThat(resolver.resolve("GET", P + "/usage").scope()).isNull();
        ApiRoute e1 = resolver.resolve("GET", P + "/agent-picks/tests/t/runs/r");
        assertThat(e1.scope()).isEqualTo("visibility.read");
        assertThat(e1.feature()).isEqualTo("agent-picks");
        assertThat(resolver.resolve("POST", "/api/v2/account/projects/x/api-keys").scope()).isEqualTo(ApiRoute.MEMBER);
    }

    @Test
    void headFollowsGetAndUnknownMethodsOrPathsResolveToNothing() {
        assertThat(resolver.resolve("HEAD", P + "/usage")).isNotNull();
        assertThat(resolver.resolve("PUT", P + "/webhooks")).isNull();
        assertThat(resolver.methodsFor(P + "/webhooks")).containsExactlyInAnyOrder("POST", "GET");
        assertThat(resolver.resolve("GET", P + "/unknown")).isNull();
        assertThat(resolver.methodsFor(P + "/unknown")).isEmpty();
        assertThat(resolver.resolve("GET", P + "/usage/")).isNull();
    }

    @Test
    void wildcardRoutesMatchPathsOfAnyDepth() {
        assertThat(resolver.resolve("GET", "/api/v2/account").id()).isEqualTo("account-api");
        assertThat(resolver.resolve("DELETE", "/api/v2/account/projects/x/api-keys/k/extra").id()).isEqualTo("account-api");
        assertThat(resolver.resolve("GET", "/oauth2/authorize").id()).isEqualTo("oauth-endpoints");
        assertThat(resolver.resolve("POST", "/oauth2/token").id()).isEqualTo("oauth-endpoints");
        assertThat(resolver.resolve("GET", "/api/mcp").id()).isEqualTo("mcp");
    }

    /** Issue 24: a request is resolved once; the answer is the same as resolving its method and path. */
    @Test
    void anExchangeIsResolvedOnceAndAgainWhenItsPathChanges() {
        MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get(P + "/actions/list"));
        ApiRoute first = resolver.resolve(exchange);
        assertThat(first).isSameAs(resolver.resolve("GET", P + "/actions/list"));
        assertThat(resolver.resolve(exchange)).isSameAs(first);
        MockServerWebExchange moved = MockServerWebExchange.builder(MockServerHttpRequest.post(P + "/webhooks")).build();
        moved.getAttributes().putAll(exchange.getAttributes());
        assertThat(resolver.resolve(moved).id()).isEqualTo("e13-webhook-create");
        MockServerWebExchange unknown = MockServerWebExchange.from(MockServerHttpRequest.get(P + "/unknown"));
        assertThat(resolver.resolve(unknown)).isNull();
        assertThat(resolver.resolve(unknown)).isNull();
    }
}
