package dev.visibility.platform.web.idempotency;

import java.util.concurrent.atomic.AtomicReference;

import dev.visibility.platform.error.InvalidRequest;
import dev.visibility.platform.security.reactive.CurrentCaller;
import org.reactivestreams.Publisher;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@code Idempotency-Key} on every POST (issue 22), as Stripe has it: the first request with a key
 * runs and its answer is stored (per caller: the API key, or the member or client without one);
 * the same key with the same request (method, path and body bytes) within 24 hours gets that answer
 * again, with {@code Idempotent-Replayed: true}, and runs nothing; the same key with another request
 * is 400 {@code invalid_request}, reason {@code idempotency_key_reused}; while the first request
 * runs, a second one is 409 {@code conflict}, reason {@code idempotency_key_in_use}. Answers of 500
 * and above are not stored (a retry runs the request again); a first request that never answered
 * (its process died) leaves the key to the next request after a minute.
 */
public class IdempotencyWebFilter implements WebFilter, Ordered {

    public static final String HEADER = IdempotencyCodec.HEADER;
    public static final String REPLAYED = IdempotencyCodec.REPLAYED;
    /** After Spring Security's filter chain (order -100), which puts the caller in the context. */
    public static final int ORDER = 0;

    private final IdempotencyKeys keys;

    public IdempotencyWebFilter(IdempotencyKeys keys) {
        this.keys = keys;
    }

    @Override
    public int getOrder() {
        return ORDER;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        String key = exchange.getRequest().getHeaders().getFirst(HEADER);
        if (key == null || exchange.getRequest().getMethod() != HttpMethod.POST) {
            return chain.filter(exchange);
        }
        try {
            IdempotencyCodec.requireValid(key);
        } catch (InvalidRequest e) {
            return Mono.error(e);
        }
        return CurrentCaller.get()
                .map(IdempotencyCodec::scope)
                .defaultIfEmpty("anonymous")
                .flatMap(scope -> DataBufferUtils.join(exchange.getRequest().getBody())
                        .map(IdempotencyWebFilter::bytes)
                        .defaultIfEmpty(new byte[0])
                        .flatMap(body -> {
                            String hash = IdempotencyCodec.requestHash(exchange.getRequest().getURI().getRawPath(), body);
                            return keys.claim(scope, key, hash).flatMap(claim -> {
                                if (claim instanceof IdempotencyKeys.Completed done) {
                                    return done.requestHash().equals(hash) ? replay(exchange.getResponse(), done)
                                            : Mono.error(IdempotencyCodec.reused());
                                }
                                if (claim instanceof IdempotencyKeys.InProgress running) {
                                    return Mono.error(IdempotencyCodec.inProgress(running.requestHash().equals(hash)));
                                }
                                return run(exchange, chain, scope, key, body);
                            });
                        }));
    }

    /** Runs the request with its body replayed, stores its answer before it is written. */
    private Mono<Void> run(ServerWebExchange exchange, WebFilterChain chain, String scope, String key, byte[] body) {
        AtomicReference<Boolean> stored = new AtomicReference<>(false);
        ServerHttpRequestDecorator request = new ServerHttpRequestDecorator(exchange.getRequest()) {
            @Override
            public Flux<DataBuffer> getBody() {
                return Flux.defer(() -> Flux.just(exchange.getResponse().bufferFactory().wrap(body)));
            }
        };
        ServerHttpResponse original = exchange.getResponse();
        ServerHttpResponseDecorator response = new ServerHttpResponseDecorator(original) {
            @Override
            public Mono<Void> writeWith(Publisher<? extends DataBuffer> content) {
                return DataBufferUtils.join(Flux.from(content))
                        .map(IdempotencyWebFilter::bytes)
                        .defaultIfEmpty(new byte[0])
                        .flatMap(bytes -> record(getStatusCode(), getHeaders(), bytes)
                                .then(Mono.defer(() -> super.writeWith(Mono.just(bufferFactory().wrap(bytes))))));
            }

            @Override
            public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> content) {
                return writeWith(Flux.from(content).flatMapSequential(p -> p));
            }

            private Mono<Void> record(HttpStatusCode status, HttpHeaders headers, byte[] bytes) {
                stored.set(true);
                int code = status == null ? 200 : status.value();
                if (code >= 500) {
                    return keys.release(scope, key);
                }
                MediaType type = headers.getContentType();
                return keys.complete(scope, key, code, type == null ? null : type.toString(), bytes);
            }
        };
        return chain.filter(exchange.mutate().request(request).response(response).build())
                .then(Mono.defer(() -> {
                    if (stored.get()) {
                        return Mono.<Void>empty();
                    }
                    // an answer without a body
                    HttpStatusCode status = original.getStatusCode();
                    return status != null && status.value() < 500
                            ? keys.complete(scope, key, status.value(), null, new byte[0])
                            : keys.release(scope, key);
                }))
                .onErrorResume(e -> keys.release(scope, key).onErrorResume(ignored -> Mono.empty()).then(Mono.error(e)));
    }

    private static Mono<Void> replay(ServerHttpResponse response, IdempotencyKeys.Completed done) {
        response.setStatusCode(HttpStatusCode.valueOf(done.status()));
        if (done.contentType() != null) {
            response.getHeaders().set(HttpHeaders.CONTENT_TYPE, done.contentType());
        }
        response.getHeaders().set(REPLAYED, "true");
        if (done.body().length == 0) {
            return response.setComplete();
        }
        return response.writeWith(Mono.just(response.bufferFactory().wrap(done.body())));
    }

    private static byte[] bytes(DataBuffer buffer) {
        try {
            byte[] bytes = new byte[buffer.readableByteCount()];
            buffer.read(bytes);
            return bytes;
        } finally {
            DataBufferUtils.release(buffer);
        }
    }
}
