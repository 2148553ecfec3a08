package dev.visibility.gateway.routing;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The route timer {@code spring.cloud.gateway.requests} (docs/operations.md): every routed request, from the
 * start of the gateway's filter chain until its answer is committed, tagged {@code routeId}, {@code routeUri},
 * {@code httpMethod}, {@code httpStatusCode} ({@code 503}), {@code status} ({@code SERVICE_UNAVAILABLE}) and
 * {@code outcome} ({@code SERVER_ERROR}): the name, tags and values of Spring Cloud Gateway's own metrics filter,
 * which is off ({@code spring.cloud.gateway.server.webflux.metrics.enabled: false}) because it built the tags
 * and looked the timer up anew for every request (issue 24); here each timer is looked up once per route,
 * method and status and kept.
 */
@Component
public class RouteRequestTimer implements GlobalFilter, Ordered {

    public static final String NAME = "spring.cloud.gateway.requests";

    private final MeterRegistry registry;
    private final ConcurrentMap<Key, Timer> timers = new ConcurrentHashMap<>();

    public RouteRequestTimer(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Where Spring Cloud Gateway's metrics filter ran: just after the response writer. */
    @Override
    public int getOrder() {
        return 0;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        long start = System.nanoTime();
        return chain.filter(exchange)
                .doOnSuccess(done -> end(exchange, start))
                .doOnError(failure -> end(exchange, start));
    }

    /** Records now when the answer is committed, else when it is (an error's answer is written after the chain). */
    private void end(ServerWebExchange exchange, long start) {
        ServerHttpResponse response = exchange.getResponse();
        if (response.isCommitted()) {
            record(exchange, start);
        } else {
            response.beforeCommit(() -> {
                record(exchange, start);
                return Mono.empty();
            });
        }
    }

    private void record(ServerWebExchange exchange, long start) {
        Route route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
        if (route == null) {
            return;
        }
        HttpStatusCode status = exchange.getResponse().getStatusCode();
        record(route.getId(), route.getUri().toString(), exchange.getRequest().getMethod(), status == null ? -1 : status.value(),
                System.nanoTime() - start);
    }

    /** One routed request of this route, method and status (-1: none) that took {@code nanos}. */
    public void record(String routeId, String routeUri, HttpMethod method, int status, long nanos) {
        timers.computeIfAbsent(new Key(routeId, routeUri, method, status), this::timer).record(nanos, TimeUnit.NANOSECONDS);
    }

    private Timer timer(Key key) {
        String outcome = "CUSTOM";
        String status = "CUSTOM";
        HttpStatus resolved = key.status() < 0 ? null : HttpStatus.resolve(key.status());
        if (resolved != null) {
            outcome = resolved.series().name();
            status = resolved.name();
        }
        return Timer.builder(NAME)
                .tag("routeId", key.routeId())
                .tag("routeUri", key.routeUri())
                .tag("httpMethod", key.method().name())
                .tag("httpStatusCode", key.status() < 0 ? "NA" : String.valueOf(key.status()))
                .tag("status", status)
                .tag("outcome", outcome)
                .register(registry);
    }

    private record Key(String routeId, String routeUri, HttpMethod method, int status) {
    }
}
