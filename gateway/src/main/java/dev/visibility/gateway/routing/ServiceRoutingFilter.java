package dev.visibility.gateway.routing;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.visibility.gateway.relay.HopByHopHeaders;
import dev.visibility.gateway.relay.InternalTokenRelayFilter;
import org.springframework.cloud.gateway.config.HttpClientProperties;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.filter.NettyRoutingFilter;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import io.netty.handler.codec.http.HttpMethod;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.client.HttpClientResponse;

/**
 * Sends a routed request to its service and hands the answer to Spring Cloud Gateway's
 * {@code NettyWriteResponseFilter}, which writes the body (the exchange attributes {@code CLIENT_RESPONSE_ATTR} and
 * {@code CLIENT_RESPONSE_CONN_ATTR}, as {@link NettyRoutingFilter} sets them). It stands in for
 * {@link NettyRoutingFilter} ({@link ProxyConfiguration}), which did for every request (issue 24):
 * <ul>
 * <li>three copies of the request's headers: the request header filters' result, a Netty copy of it, and the
 * client's copy of that, made by a consumer that also duplicated the client's configuration;</li>
 * <li>two more duplicates of the client's configuration: the connect time-out applied again (the client bean
 * already has it), and the URL given as a string, which Reactor Netty then matched against a regular expression;</li>
 * <li>two copies of the answer's headers (into a map for the response header filters, then into the response);</li>
 * <li>a time-out that scheduled a timer when the request started and another when the answer came.</li>
 * </ul>
 * Here the headers a service gets are written once, straight into the outbound request
 * ({@link InternalTokenRelayFilter#forwarded}); the answer's status and headers are copied once into the response,
 * leaving out its hop-by-hop headers ({@link HopByHopHeaders}); the URL is the one {@link ServiceUrlFilter} parsed;
 * and one timer bounds the wait for the answer.
 * <p>
 * What stays as it was: the shared client (its pool and connect time-out,
 * {@code spring.cloud.gateway.server.webflux.httpclient.*}); the answer's status passed on as it is, any code; no
 * answer within {@code httpclient.response-timeout} is 504, as before (the body then streams without a time-out, so
 * an event stream of the MCP server stays open); a service that cannot be reached fails as the client fails, which
 * the error handler answers 503.
 */
public class ServiceRoutingFilter implements GlobalFilter, Ordered {

    private final HttpClient client;
    private final InternalTokenRelayFilter relay;
    private final Duration responseTimeout;

    public ServiceRoutingFilter(HttpClient client, HttpClientProperties properties, InternalTokenRelayFilter relay) {
        this.client = client;
        this.relay = relay;
        this.responseTimeout = properties.getResponseTimeout();
    }

    /** Where {@link NettyRoutingFilter} ran: last. */
    @Override
    public int getOrder() {
        return NettyRoutingFilter.ORDER;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        URI url = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_REQUEST_URL_ATTR);
        if (url == null || ServerWebExchangeUtils.isAlreadyRouted(exchange) || !isHttp(url.getScheme())) {
            return chain.filter(exchange);
        }
        ServerWebExchangeUtils.setAlreadyRouted(exchange);
        ServerHttpRequest request = exchange.getRequest();
        io.netty.handler.codec.http.HttpHeaders headers = relay.forwarded(exchange);
        Mono<HttpClientResponse> answer = client.request(HttpMethod.valueOf(request.getMethod().name()))
                .uri(url)
                .send((outbound, body) -> {
                    outbound.headers(headers);
                    return body.send(request.getBody().map(NettyDataBufferFactory::toByteBuf));
                })
                .responseConnection((response, connection) -> {
                    Map<String, Object> attributes = exchange.getAttributes();
                    attributes.put(ServerWebExchangeUtils.CLIENT_RESPONSE_ATTR, response);
                    attributes.put(ServerWebExchangeUtils.CLIENT_RESPONSE_CONN_ATTR, connection);
                    passOn(response, exchange.getResponse());
                    return Mono.just(response);
                })
                // one answer: completes with it, without cancelling the exchange with the service
                .singleOrEmpty();
        if (responseTimeout != null) {
            answer = answer.timeout(responseTimeout, Mono.error(() -> new ResponseStatusException(HttpStatus.GATEWAY_TIMEOUT,
                    "Response took longer than timeout: " + responseTimeout)));
        }
        return answer.then(chain.filter(exchange));
    }

    /** The service's status, any code, and its headers but the hop-by-hop ones. */
    static void passOn(HttpClientResponse answer, ServerHttpResponse response) {
        response.setStatusCode(HttpStatusCode.valueOf(answer.status().code()));
        io.netty.handler.codec.http.HttpHeaders received = answer.responseHeaders();
        List<String> options = HopByHopHeaders.connectionOptions(received);
        HttpHeaders headers = response.getHeaders();
        for (Map.Entry<String, String> header : received) {
            if (!HopByHopHeaders.isHopByHop(header.getKey(), options)) {
                headers.add(header.getKey(), header.getValue());
            }
        }
    }

    private static boolean isHttp(String scheme) {
        return "http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme);
    }
}
