package dev.visibility.gateway.routing;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.ScheduledFuture;
import org.springframework.cloud.gateway.config.HttpClientCustomizer;
import org.springframework.cloud.gateway.config.HttpClientProperties;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ResponseStatusException;
import reactor.netty.channel.ChannelOperations;
import reactor.netty.http.client.HttpClient;

/**
 * The proxy's response time-out ({@code spring.cloud.gateway.server.webflux.httpclient.response-timeout}: how long
 * a service may take to start its answer), timed on the event loop of the connection to the service (issue 24).
 *
 * <p>Spring Cloud Gateway times it with Reactor's {@code timeout} operator, whose timer runs on Reactor's
 * {@code parallel} scheduler: every proxied request scheduled a task there and cancelled it, two wake-ups of a
 * {@code parallel} thread (futex calls and thread switches on both sides; 2 of them a request per thread in an
 * {@code strace} of the gateway). Here the time-out is a task in the timer queue of the connection's own event
 * loop, scheduled when the request is sent and cancelled when the answer's status and headers have arrived (what
 * Spring Cloud Gateway's operator timed too: it never limits how long a body, such as an MCP event stream, may take):
 * no handler is added to the connection's pipeline and no other thread is woken. When it fires, the request fails as Spring Cloud Gateway's did, with a 504
 * ({@code unavailable} in the error shape, {@code ProxiedHeadersTest}), and the connection is closed. The routes
 * turn Spring Cloud Gateway's own timer off ({@code response-timeout} metadata -1, {@link RoutingConfiguration}).
 */
@Component
public class ResponseTimeoutOnLoop implements HttpClientCustomizer {

    /** The timer of the request a connection is serving. */
    private static final AttributeKey<ScheduledFuture<?>> TIMER = AttributeKey.valueOf(ResponseTimeoutOnLoop.class, "timer");

    private final Duration timeout;

    ResponseTimeoutOnLoop(HttpClientProperties properties) {
        this.timeout = properties.getResponseTimeout();
    }

    @Override
    public HttpClient customize(HttpClient client) {
        if (timeout == null) {
            return client;
        }
        long millis = timeout.toMillis();
        String message = "Response took longer than timeout: " + timeout;
        return client
                .doOnRequest((request, connection) -> {
                    Channel channel = connection.channel();
                    ScheduledFuture<?> timer = channel.eventLoop().schedule(() -> {
                        // only while this request still owns the connection: a pooled connection's next request has
                        // operations of its own (a timer that a failed request left behind finds them and does nothing)
                        if (ChannelOperations.get(channel) == connection) {
                            channel.pipeline().fireExceptionCaught(new ResponseStatusException(HttpStatus.GATEWAY_TIMEOUT, message));
                            channel.close();
                        }
                    }, millis, TimeUnit.MILLISECONDS);
                    channel.attr(TIMER).set(timer);
                })
                .doOnResponse((response, connection) -> {
                    ScheduledFuture<?> timer = connection.channel().attr(TIMER).getAndSet(null);
                    if (timer != null) {
                        timer.cancel(false);
                    }
                });
    }
}
