package dev.visibility.gateway.routing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

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
}
