package dev.visibility.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import dev.visibility.gateway.ratelimit.LocalRateLimiter;
import dev.visibility.gateway.ratelimit.RateLimiter;
import dev.visibility.gateway.routing.ApiRoute;
import dev.visibility.gateway.routing.ResolvedRouteHandlerMapping;
import dev.visibility.gateway.routing.RouteTable;
import dev.visibility.gateway.support.StubServices;
import dev.visibility.platform.testing.Http;
import dev.visibility.platform.testing.KeepAliveRequests;
import dev.visibility.platform.testing.RunningServerTest;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.cloud.gateway.handler.RoutePredicateHandlerMapping;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.context.ApplicationContext;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.http.HttpMethod;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.security.web.server.WebFilterChainProxy;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.util.ReflectionTestUtils;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;

/**
 * The gateway routes every path of the route table; unknown paths are 404 and a service that
 * does not answer is 503 {@code unavailable}, both in the error shape (spec 7, DESIGN.md "Errors").
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class GatewayRoutingTest extends RunningServerTest {

    @DynamicPropertySource
    static void servicesAreDown(DynamicPropertyRegistry registry) {
        // a loopback port on which nothing listens: every service "is down"
        StubServices.allDown(registry);
        // hundreds of refused keys from one address here: the failed-authentication limit is tested on its own
        registry.add("suite.edge.failed-authentications-per-minute", () -> "1000000");
    }

    @LocalManagementPort
    int managementPort;

    @Autowired
    RouteLocator routes;

    @Autowired
    ApplicationContext context;

    @Autowired
    RoutePredicateHandlerMapping handlerMapping;

    @Test
    void everyRouteOfTheTableIsRegisteredWithItsScope() {
        Map<String, Object> scopes = routes.getRoutes().collectMap(r -> r.getId(), r -> r.getMetadata().getOrDefault("scope", "")).block();
        Set<String> ids = RouteTable.ROUTES.stream().map(ApiRoute::id).collect(Collectors.toSet());
        assertThat(scopes.keySet()).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(scopes).containsEntry("e1-agent-picks-run", "visibility.read")
                .containsEntry("e14-webhook-list", "webhooks.read")
                .containsEntry("e13-webhook-create", "webhooks.write")
                .containsEntry("project-usage", "");
    }

    /** Requests and the one route each belongs to (its {@code routeId}). */
    private static final Map<String, String> ROUTE_OF = Map.of(
            "GET /api/v2/projects/p1/webhooks", "e14-webhook-list",
            "POST /api/v2/projects/p1/webhooks", "e13-webhook-create",
            "HEAD /api/v2/projects/p1/webhooks", "e14-webhook-list",
            "DELETE /api/v2/projects/p1/webhooks/w1", "e15-webhook-delete",
            "GET /api/v2/projects/p1/actions/a1/brief", "action-brief",
            "PATCH /api/v2/projects/p1/actions/a1", "action-update",
            "POST /api/v2/account/projects/p1/keys", "account-api",
            "GET /api/mcp", "mcp");

    /**
     * A request matches the one route {@code RouteResolver} resolves it to, by method and path: GET and POST on
     * one path are two routes (and two {@code routeId}s of {@code spring.cloud.gateway.requests}), HEAD is a GET.
     */
    @Test
    void eachRequestMatchesExactlyTheRouteOfItsMethodAndPath() {
        ROUTE_OF.forEach((request, id) -> {
            String[] parts = request.split(" ");
            assertThat(matchingRoutes(parts[0], parts[1])).as(request).containsExactly(id);
        });
        assertThat(matchingRoutes("PUT", "/api/v2/projects/p1/webhooks")).isEmpty();
        assertThat(matchingRoutes("GET", "/api/v2/projects/p1/no-such-resource")).isEmpty();
    }

    /**
     * The handler mapping hands each request to the route its predicates match, found by the resolution and not by
     * asking every route in turn (issue 24, {@code ResolvedRouteHandlerMapping}); a request of no route gets none.
     */
    @Test
    void theHandlerMappingPicksTheRouteOfTheResolution() {
        assertThat(handlerMapping).isInstanceOf(ResolvedRouteHandlerMapping.class);
        ROUTE_OF.forEach((request, id) -> {
            String[] parts = request.split(" ");
            assertThat(routeOfHandler(parts[0], parts[1])).as(request).isEqualTo(id);
        });
        assertThat(routeOfHandler("PUT", "/api/v2/projects/p1/webhooks")).isNull();
        assertThat(routeOfHandler("GET", "/api/v2/projects/p1/no-such-resource")).isNull();
        assertThat(routeOfHandler("GET", "/no-api-at-all")).isNull();
    }

    /** The proxy's client is the one the gateway customised: it cuts no answer into 8 KB pieces ({@code ProxiedBodyChunks}). */
    @Test
    void theProxysClientHandsOnBodiesInThePiecesItReads() {
        assertThat(context.getBean(HttpClient.class).configuration().decoder().maxChunkSize())
                .isGreaterThan(64 * 1024);
    }

    private String routeOfHandler(String method, String path) {
        MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.method(HttpMethod.valueOf(method), path)
                .localAddress(new InetSocketAddress("127.0.0.1", port)));
        Object handler = handlerMapping.getHandler(exchange).block(Duration.ofSeconds(5));
        Route route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
        assertThat(handler == null).as("a handler exactly when there is a route").isEqualTo(route == null);
        return route == null ? null : route.getId();
    }

    private List<String> matchingRoutes(String method, String path) {
        MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.method(HttpMethod.valueOf(method), path));
        return routes.getRoutes()
                .filterWhen(route -> Mono.from(route.getPredicate().apply(exchange)))
                .map(route -> route.getId())
                .collectList().block(Duration.ofSeconds(5));
    }

    @Test
    void pathOutsideTheApiIs404InTheErrorShape() {
        Map<String, Object> body = error(client.get().uri("/no/such/path"), 404);
        assertThat(body).containsEntry("error", "not_found");
    }

    @Test
    void apiPathWithoutKeyIs401() {
        Map<String, Object> body = error(client.get().uri("/api/v2/projects/p/unknown-resource"), 401);
        assertThat(body).containsEntry("error", "unauthorized");
    }

    @Test
    void authServiceDownIs503NotA401() {
        for (String path : new String[] {"/api/v2/projects/p/actions/list", "/api/v2/projects/p/usage", "/api/mcp"}) {
            Map<String, Object> body = error(client.get().uri(path)
                    .header("Authorization", "Bearer svc_live_" + "0123456789abcdef".repeat(4)), 503);
            assertThat(body).containsEntry("error", "unavailable");
        }
    }

    /**
     * Issue 23: the OpenAPI document answers without a key, and a service that does not answer
     * leaves its paths out and is listed, never a 500 (here every service is down).
     */
    @Test
    void openApiDocumentAnswersWithoutAKeyEvenWhenEveryServiceIsDown() {
        @SuppressWarnings("unchecked")
        Map<String, Object> document = client.get().uri(RouteTable.OPENAPI_DOCUMENT).exchange()
                .expectStatus().isOk()
                .expectHeader().contentTypeCompatibleWith("application/json")
                .expectBody(Map.class).returnResult().getResponseBody();
        assertThat(document).containsEntry("openapi", "3.1.0");
        assertThat(document.get("x-unavailable")).asInstanceOf(InstanceOfAssertFactories.list(String.class))
                .containsExactlyInAnyOrderElementsOf(RouteTable.SERVICES);
        assertThat(document.get("servers")).asInstanceOf(InstanceOfAssertFactories.LIST).hasSize(1);
        assertThat(document.get("webhooks")).asInstanceOf(InstanceOfAssertFactories.MAP).hasSize(6);
        // another path under /api/v2 still needs a key
        error(client.get().uri("/api/v2/openapi.yaml"), 401);
    }

    /** Reactor Netty 1.3.6 left about one request in fifty on a reused connection unanswered (reactor-netty#4188). */
    @Test
    void everyRequestOnOneKeepAliveConnectionIsAnswered() throws Exception {
        assertThat(KeepAliveRequests.statuses(managementPort, "/actuator/health/liveness", 500, 5_000)).hasSize(500).containsOnly(200);
        List<Integer> refused = KeepAliveRequests.statuses(port, "/api/v2/projects/p/actions/list", 300, 5_000);
        assertThat(refused).hasSize(300).containsOnly(401);
    }

    /**
     * Issue 23: the gateway's metrics (requests per route, the credential cache) answer on its
     * management port; its public port serves no Actuator endpoint, only the error shape.
     */
    @Test
    void metricsAnswerOnTheManagementPortAndNeverOnThePublicOne() {
        // a public route to a service that is down (503), and a key that auth-service (down) cannot check (503)
        client.get().uri("/.well-known/oauth-authorization-server").exchange().expectStatus().isEqualTo(503);
        client.get().uri("/api/v2/projects/p/actions/list").header("Authorization", "Bearer svc_live_" + "fedcba9876543210".repeat(4))
                .exchange().expectStatus().isEqualTo(503);
        String scrape = Http.client(managementPort).get().uri("/actuator/prometheus").exchange()
                .expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
        assertThat(scrape).contains("application=\"gateway\"")
                .contains("spring_cloud_gateway_requests_seconds_count{").contains("routeId=\"oauth-metadata\"")
                // histogram buckets for the "Slow route" alert of docs/operations.md (p99 over every replica)
                .contains("spring_cloud_gateway_requests_seconds_bucket{")
                .contains("cache_gets_total{").contains("cache=\"credentials\"")
                // issue 23: rate-limit decisions by outcome and store, present before the first decision
                .contains("gateway_rate_limit_decisions_total{").contains("outcome=\"refused\"").contains("store=\"fallback\"")
                // issue 24: the request timer, without a long-task timer beside it
                .contains("http_server_requests_seconds_count{").doesNotContain("http_server_requests_active");
        // the route timer's tags (RouteRequestTimer: Spring Cloud Gateway's names and values): the 503 of a service that
        // does not answer is the status the route's requests ended with
        assertThat(scrape.lines().filter(line -> line.startsWith("spring_cloud_gateway_requests_seconds_count{")
                && line.contains("routeId=\"oauth-metadata\"")))
                .singleElement().asString()
                .contains("httpMethod=\"GET\"").contains("httpStatusCode=\"503\"").contains("status=\"SERVICE_UNAVAILABLE\"")
                .contains("outcome=\"SERVER_ERROR\"").contains("routeUri=\"http://127.0.0.1:");
        for (String path : List.of("/actuator/prometheus", "/actuator/health", "/actuator/health/liveness")) {
            assertThat(error(client.get().uri(path), 404)).as(path).containsEntry("error", "not_found");
        }
    }

    /** Issue 24: with the local rate-limit store (the default) the gateway makes no Redis client at all. */
    @Test
    void theLocalRateLimitStoreMakesNoRedisClient() {
        assertThat(context.getBean(RateLimiter.class)).isInstanceOf(LocalRateLimiter.class);
        assertThat(context.getBeanNamesForType(RedisConnectionFactory.class)).isEmpty();
        assertThat(context.getBeanNamesForType(ReactiveRedisConnectionFactory.class)).isEmpty();
    }

    /**
     * Issue 24: Spring Security's observations are off (platform-defaults.properties), and so is the
     * wrapper it otherwise puts around every filter of its chain for each request.
     */
    @Test
    void theSecurityFilterChainIsNotDecoratedWithObservations() {
        WebFilterChainProxy proxy = context.getBean(WebFilterChainProxy.class);
        assertThat(ReflectionTestUtils.getField(proxy, "filterChainDecorator"))
                .isInstanceOf(WebFilterChainProxy.DefaultWebFilterChainDecorator.class);
    }

    private Map<String, Object> error(WebTestClient.RequestHeadersSpec<?> request, int status) {
        Map<String, Object> body = Http.error(request, status);
        assertThat(body.toString()).doesNotContain("127.0.0.1");
        return body;
    }
}
