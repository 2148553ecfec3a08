package dev.visibility.webhook.delivery;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import javax.net.ssl.SSLException;

import dev.visibility.webhook.config.WebhookProperties;
import dev.visibility.webhook.destinations.DestinationGuard;
import dev.visibility.webhook.destinations.DestinationRefused;
import dev.visibility.webhook.destinations.GuardedAddressResolverGroup;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelOption;
import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * POSTs one delivery attempt (spec 6.3 headers plus {@code X-Service-Delivery}) and reports how
 * it went; it never fails, every problem becomes an {@link Outcome} with an error class.
 *
 * <p>Destinations are pinned: the client's resolver is the {@link DestinationGuard}, so a
 * connection goes only to an address that was checked in the same lookup (no DNS-rebinding
 * window), IP literals included. TLS verifies the certificate chain and the host name (SNI and
 * the {@code Host} header carry the URL's host); redirects are not followed (a 3xx is a failure);
 * no proxy is used; TLS runs on BoringSSL where netty-tcnative loads, else on the JDK. One
 * attempt, from lookup to the status line and the drained body, is bounded by
 * {@code suite.webhook.delivery.timeout}.
 */
public class DeliveryHttpClient implements DisposableBean {

    public static final String USER_AGENT = "Service-Webhook/2.0";
    public static final String SIGNATURE_HEADER = "X-Service-Signature";
    public static final String EVENT_HEADER = "X-Service-Event";
    public static final String DELIVERY_HEADER = "X-Service-Delivery";
    public static final String REDELIVERY_OF_HEADER = "X-Service-Redelivery-Of";

    /** Error classes of the delivery log (README). */
    public static final String HTTP_STATUS = "http_status";
    public static final String TIMEOUT = "timeout";
    public static final String CONNECTION = "connection";
    public static final String TLS = "tls";
    public static final String BLOCKED_ADDRESS = "blocked_address";

    /** What to send: the exact body bytes and the headers' values. */
    public record Request(String url, byte[] body, String event, String signature, UUID deliveryId, UUID redeliveryOf) {
    }

    /**
     * How an attempt went.
     *
     * @param at         when it started
     * @param httpStatus the answer's status, null when none came
     * @param durationMs from start to the end of the answer (or the failure)
     * @param errorClass null on success, otherwise one of the error classes above
     * @param retryAfter the receiver's {@code Retry-After} on a failed answer, null when absent or unreadable
     */
    public record Outcome(Instant at, Integer httpStatus, long durationMs, String errorClass, Duration retryAfter) {

        public boolean succeeded() {
            return errorClass == null;
        }
    }

    private record Answer(int status, String retryAfter) {
    }

    private static final Logger log = LoggerFactory.getLogger(DeliveryHttpClient.class);

    /** Outcome tag of the {@code webhook.attempts} timer on success; failures carry their error class. */
    public static final String SUCCESS = "success";

    private final ConnectionProvider connections;
    private final HttpClient http;
    private final Duration timeout;
    private final Map<String, Timer> attempts;

    public DeliveryHttpClient(WebhookProperties properties, DestinationGuard guard) {
        this(properties, guard, null);
    }

    /**
     * @param meters where {@code webhook.attempts} (count and latency of attempts by outcome) is kept;
     *               null keeps none
     */
    public DeliveryHttpClient(WebhookProperties properties, DestinationGuard guard, MeterRegistry meters) {
        this.attempts = new HashMap<>();
        if (meters != null) {
            for (String outcome : List.of(SUCCESS, HTTP_STATUS, TIMEOUT, CONNECTION, TLS, BLOCKED_ADDRESS)) {
                attempts.put(outcome, Timer.builder("webhook.attempts")
                        .description("Webhook delivery attempts, from lookup to the drained answer, by outcome")
                        .tag("outcome", outcome)
                        .register(meters));
            }
        }
        WebhookProperties.Delivery delivery = properties.delivery();
        this.timeout = delivery.timeout();
        this.connections = ConnectionProvider.builder("webhook-deliveries")
                .maxConnections(delivery.maxConnections())
                // requests beyond the connections of a receiver wait (bounded by the batch's parallelism), within the time-out
                .pendingAcquireMaxCount(-1)
                .pendingAcquireTimeout(timeout)
                .maxIdleTime(Duration.ofSeconds(30))
                .evictInBackground(Duration.ofSeconds(30))
                .build();
        SslContext tls;
        // BoringSSL (netty-tcnative) when its native library loads: TLS was a third of the client's CPU per
        // delivery on the JDK's SSLEngine; the same trust manager, host name check and protocols either way
        SslProvider provider = OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
        log.info("Webhook deliveries use TLS from {}", provider == SslProvider.OPENSSL
                ? "BoringSSL (netty-tcnative, " + OpenSsl.versionString() + ")" : "the JDK");
        try {
            tls = SslContextBuilder.forClient().sslProvider(provider)
                    .trustManager(DeliveryTrust.trustManager(properties.tls())).build();
        } catch (SSLException e) {
            throw new IllegalStateException("Could not set up TLS for deliveries", e);
        }
        this.http = HttpClient.create(connections)
                .resolver(new GuardedAddressResolverGroup(guard, Schedulers.boundedElastic()))
                .followRedirect(false)
                .compress(false)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(timeout.toMillis(), Integer.MAX_VALUE))
                .secure(spec -> spec.sslContext(tls))
                // the same on every request; the per-delivery ones are set on each request, which does not copy
                // the client's configuration as a headers(...) call per request did
                .headers(headers -> headers.set("Content-Type", "application/json").set("User-Agent", USER_AGENT));
    }

    public Mono<Outcome> post(Request request) {
        return Mono.defer(() -> {
            Instant at = Instant.now().truncatedTo(ChronoUnit.MICROS);
            long started = System.nanoTime();
            return http
                    .post()
                    .uri(request.url())
                    .send((outbound, out) -> {
                        outbound.header(SIGNATURE_HEADER, request.signature())
                                .header(EVENT_HEADER, request.event())
                                .header(DELIVERY_HEADER, request.deliveryId().toString());
                        if (request.redeliveryOf() != null) {
                            outbound.header(REDELIVERY_OF_HEADER, request.redeliveryOf().toString());
                        }
                        return out.send(Mono.fromSupplier(() -> Unpooled.wrappedBuffer(request.body())));
                    })
                    .response((response, content) -> {
                        Answer answer = new Answer(response.status().code(),
                                response.responseHeaders().get("Retry-After"));
                        // drain the body so that the connection can be reused
                        return content.then(Mono.just(answer));
                    })
                    .next()
                    // with a fallback, the operator builds no description of itself per request (a regex per call)
                    .timeout(timeout, Mono.error(() -> new TimeoutException("no answer within the time-out")))
                    .map(answer -> answered(at, started, answer))
                    .onErrorResume(e -> Mono.just(new Outcome(at, null, millisSince(started), classify(e), null)))
                    .doOnNext(outcome -> measure(outcome, started));
        });
    }

    private void measure(Outcome outcome, long started) {
        Timer timer = attempts.get(outcome.succeeded() ? SUCCESS : outcome.errorClass());
        if (timer != null) {
            timer.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        }
    }

    private static Outcome answered(Instant at, long started, Answer answer) {
        boolean ok = answer.status() >= 200 && answer.status() < 300;
        return new Outcome(at, answer.status(), millisSince(started), ok ? null : HTTP_STATUS,
                ok ? null : retryAfter(answer.retryAfter(), Instant.now()));
    }

    /** {@code Retry-After} as delta-seconds or an HTTP date (RFC 9110 10.2.3); null when absent or unreadable. */
    static Duration retryAfter(String value, Instant now) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String trimmed = value.trim();
        if (trimmed.chars().allMatch(Character::isDigit) && trimmed.length() <= 9) {
            return Duration.ofSeconds(Long.parseLong(trimmed));
        }
        try {
            Instant date = ZonedDateTime.parse(trimmed, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            return date.isAfter(now) ? Duration.between(now, date) : Duration.ZERO;
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    static String classify(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof DestinationRefused) {
                return BLOCKED_ADDRESS;
            }
            // java.util.concurrent.TimeoutException covers the pool's acquire time-out too
            if (t instanceof TimeoutException || t instanceof ConnectTimeoutException
                    || t instanceof io.netty.handler.timeout.TimeoutException) {
                return TIMEOUT;
            }
            if (t instanceof SSLException) {
                return TLS;
            }
        }
        // refused, reset, closed early, unreachable: the receiver could not be talked to
        return CONNECTION;
    }

    private static long millisSince(long started) {
        return Duration.ofNanos(System.nanoTime() - started).toMillis();
    }

    @Override
    public void destroy() {
        connections.dispose();
    }
}
