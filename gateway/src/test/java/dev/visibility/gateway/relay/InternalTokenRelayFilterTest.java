package dev.visibility.gateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import dev.visibility.gateway.auth.EdgePrincipal;
import dev.visibility.platform.security.InternalTokenClaims;
import dev.visibility.platform.security.InternalTokenMinter;
import dev.visibility.platform.security.InternalTokenProperties;
import dev.visibility.platform.testing.TestTokens;
import org.junit.jupiter.api.Test;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;

/**
 * DESIGN.md request path 5: the caller's credential and cookies never reach a service; the service
 * gets the internal token, RS256 over the principal's claims, reused while it is young.
 */
class InternalTokenRelayFilterTest {

    private final InternalTokenProperties properties = new InternalTokenProperties(false, TestTokens.PRIVATE_KEY,
            TestTokens.PUBLIC_KEY, null, null, Duration.ofSeconds(60));
    private final InternalTokenRelayFilter filter = new InternalTokenRelayFilter(new InternalTokenMinter(properties), properties);
    private final EdgePrincipal key = new EdgePrincipal(EdgePrincipal.Kind.API_KEY, "k1", "p1", "a1", Set.of("actions.read"),
            Set.of(), "plus", true, false);

    @Test
    void theCredentialIsReplacedByTheInternalTokenOfThePrincipal() {
        HttpHeaders forwarded = forward(key);
        assertThat(forwarded.get(HttpHeaders.AUTHORIZATION)).hasSize(1);
        assertThat(forwarded.getFirst(HttpHeaders.AUTHORIZATION)).startsWith("Bearer ").doesNotContain("svc_live_");
        assertThat(forwarded.containsHeader(HttpHeaders.COOKIE)).isFalse();
        Jwt jwt = NimbusJwtDecoder.withPublicKey(properties.verificationKey()).signatureAlgorithm(SignatureAlgorithm.RS256).build()
                .decode(forwarded.getFirst(HttpHeaders.AUTHORIZATION).substring(7));
        assertThat(jwt.getClaimAsString("proj")).isEqualTo("p1");
        assertThat(jwt.getClaimAsString("key")).isEqualTo("k1");
        assertThat(jwt.getClaimAsStringList("scp")).containsExactly("actions.read");
        // the same principal reuses its token for the first half of its life
        assertThat(forward(key).getFirst(HttpHeaders.AUTHORIZATION)).isEqualTo(forwarded.getFirst(HttpHeaders.AUTHORIZATION));
    }

    /**
     * An OAuth client's principal is made anew for each request (McpOAuthWebFilter): an equal principal reuses
     * the token as one object does, instead of a signature per request.
     */
    @Test
    void equalOAuthPrincipalsOfTwoRequestsShareTheirToken() {
        EdgePrincipal first = new EdgePrincipal(EdgePrincipal.Kind.OAUTH_CLIENT, "client-1", "p1", "a1", Set.of("actions.read"),
                Set.of(), "plus", true, false, null, "member-1");
        EdgePrincipal second = new EdgePrincipal(EdgePrincipal.Kind.OAUTH_CLIENT, "client-1", "p1", "a1", Set.of("actions.read"),
                Set.of(), "plus", true, false, null, "member-1");
        assertThat(forward(second).getFirst(HttpHeaders.AUTHORIZATION)).isEqualTo(forward(first).getFirst(HttpHeaders.AUTHORIZATION));
        EdgePrincipal otherMember = new EdgePrincipal(EdgePrincipal.Kind.OAUTH_CLIENT, "client-1", "p1", "a1", Set.of("actions.read"),
                Set.of(), "plus", true, false, null, "member-2");
        assertThat(forward(otherMember).getFirst(HttpHeaders.AUTHORIZATION)).isNotEqualTo(forward(first).getFirst(HttpHeaders.AUTHORIZATION));
    }

    /** Issue 19: the key's creator is a claim of the forwarded token (agents-service checks thread ownership with it). */
    @Test
    void theKeysCreatorIsForwardedInTheToken() {
        EdgePrincipal created = new EdgePrincipal(EdgePrincipal.Kind.API_KEY, "k2", "p1", "a1", Set.of("agents.run"),
                Set.of(), "plus", true, false, "3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b");
        Jwt jwt = NimbusJwtDecoder.withPublicKey(properties.verificationKey()).signatureAlgorithm(SignatureAlgorithm.RS256).build()
                .decode(forward(created).getFirst(HttpHeaders.AUTHORIZATION).substring(7));
        assertThat(jwt.getClaimAsString(InternalTokenClaims.KEY_CREATOR)).isEqualTo("3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b");
        assertThat(InternalTokenClaims.toCaller(jwt.getClaims()).keyCreatorId()).isEqualTo("3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b");
        // a key without a recorded creator carries no such claim
        Jwt without = NimbusJwtDecoder.withPublicKey(properties.verificationKey()).signatureAlgorithm(SignatureAlgorithm.RS256).build()
                .decode(forward(key).getFirst(HttpHeaders.AUTHORIZATION).substring(7));
        assertThat(without.hasClaim(InternalTokenClaims.KEY_CREATOR)).isFalse();
    }

    @Test
    void withoutAPrincipalNothingIsForwardedAsCredential() {
        HttpHeaders forwarded = forward(null);
        assertThat(forwarded.containsHeader(HttpHeaders.AUTHORIZATION)).isFalse();
        assertThat(forwarded.containsHeader(HttpHeaders.COOKIE)).isFalse();
    }

    /** Issue 20: auth-service's sign-in pages keep the browser's session cookie, and only they do. */
    @Test
    void signInRoutesKeepTheCookieAndGetThePublicOriginButNoCredential() {
        for (String id : List.of("sign-in", "sign-out", "dashboard", "oauth-endpoints", "oauth-metadata")) {
            MockServerWebExchange exchange = exchange("http://gateway.example:8080/login");
            exchange.getAttributes().put(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR, route(id));
            HttpHeaders forwarded = filter.filter(exchange.getRequest().getHeaders(), exchange);
            assertThat(forwarded.getFirst(HttpHeaders.COOKIE)).as(id).isEqualTo("session=abc");
            assertThat(forwarded.containsHeader(HttpHeaders.AUTHORIZATION)).as(id).isFalse();
            assertThat(forwarded.getFirst("X-Forwarded-Proto")).isEqualTo("http");
            assertThat(forwarded.getFirst("X-Forwarded-Host")).isEqualTo("gateway.example");
            assertThat(forwarded.getFirst("X-Forwarded-Port")).isEqualTo("8080");
            assertThat(forwarded.get("X-Forwarded-Host")).as("what the caller claimed is gone").hasSize(1);
            assertThat(forwarded.containsHeader("X-Forwarded-Prefix")).isFalse();
            assertThat(forwarded.getFirst(HttpHeaders.ACCEPT)).as("other headers pass").isEqualTo("application/json");
        }
        // an API route of auth-service: no cookie, and no forwarded header, neither added nor the caller's
        MockServerWebExchange api = exchange("http://gateway.example:8080/api/v2/account/projects");
        api.getAttributes().put(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR, route("account-api"));
        HttpHeaders forwarded = filter.filter(api.getRequest().getHeaders(), api);
        assertThat(forwarded.containsHeader(HttpHeaders.COOKIE)).isFalse();
        assertThat(forwarded.containsHeader("X-Forwarded-Host")).isFalse();
        assertThat(forwarded.containsHeader("X-Forwarded-Proto")).isFalse();
        assertThat(forwarded.getFirst(HttpHeaders.ACCEPT)).isEqualTo("application/json");
    }

    /** A request with a principal on a sign-in path (a member's token on the account API) keeps no cookie. */
    @Test
    void aPrincipalNeverForwardsTheCookieEvenOnASignInRoute() {
        MockServerWebExchange exchange = exchange("http://gateway.example:8080/login");
        exchange.getAttributes().put(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR, route("sign-in"));
        exchange.getAttributes().put(EdgePrincipal.ATTRIBUTE, key);
        HttpHeaders forwarded = filter.filter(exchange.getRequest().getHeaders(), exchange);
        assertThat(forwarded.containsHeader(HttpHeaders.COOKIE)).isFalse();
        assertThat(forwarded.getFirst(HttpHeaders.AUTHORIZATION)).startsWith("Bearer ").doesNotContain("svc_live_");
    }

    private static Route route(String id) {
        return Route.async().id(id).uri(URI.create("http://127.0.0.1:8081")).predicate(exchange -> true).build();
    }

    private static MockServerWebExchange exchange(String url) {
        return MockServerWebExchange.from(MockServerHttpRequest.get(url)
                .header(HttpHeaders.AUTHORIZATION, "Bearer svc_live_" + "0".repeat(64))
                .header(HttpHeaders.COOKIE, "session=abc")
                .header(HttpHeaders.ACCEPT, "application/json")
                .header("X-Forwarded-Host", "evil.example")
                .header("x-forwarded-prefix", "/evil"));
    }

    private HttpHeaders forward(EdgePrincipal principal) {
        MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get("/api/v2/projects/p1/actions/list")
                .header(HttpHeaders.AUTHORIZATION, "Bearer svc_live_" + "0".repeat(64))
                .header(HttpHeaders.COOKIE, "session=abc"));
        if (principal != null) {
            exchange.getAttributes().put(EdgePrincipal.ATTRIBUTE, principal);
        }
        return filter.filter(exchange.getRequest().getHeaders(), exchange);
    }
}
