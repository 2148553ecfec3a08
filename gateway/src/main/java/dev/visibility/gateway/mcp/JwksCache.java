package dev.visibility.gateway.mcp;

import java.text.ParseException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKMatcher;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jwt.SignedJWT;
import io.netty.channel.ChannelOption;
import org.springframework.http.MediaType;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;

/**
 * auth-service's JWKS, fetched with a time-out and kept for {@code jwksCacheTtl}; a token whose key
 * id is not in the set fetches it again (key rotation), at most once per {@code jwksMinRefresh}.
 * A failed fetch is not kept: the next token tries again.
 */
final class JwksCache {

    private final WebClient client;
    private final McpOAuthProperties properties;
    private final AtomicLong lastFetch = new AtomicLong();
    private volatile Mono<JWKSet> current;

    JwksCache(McpOAuthProperties properties) {
        this.properties = properties;
        HttpClient http = HttpClient.create()
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) properties.jwksTimeout().toMillis())
                .responseTimeout(properties.jwksTimeout());
        this.client = WebClient.builder().clientConnector(new ReactorClientHttpConnector(http)).build();
        this.current = fetch();
    }

    /** The keys that match the token's header (algorithm, key id). */
    Flux<JWK> keysFor(SignedJWT jwt) {
        JWKSelector selector = new JWKSelector(JWKMatcher.forJWSHeader(jwt.getHeader()));
        return current.flatMapMany(set -> {
            List<JWK> found = selector.select(set);
            if (!found.isEmpty() || !mayRefresh()) {
                return Flux.fromIterable(found);
            }
            current = fetch();
            return current.flatMapIterable(selector::select);
        });
    }

    private boolean mayRefresh() {
        long now = System.nanoTime();
        long last = lastFetch.get();
        return now - last >= properties.jwksMinRefresh().toNanos() && lastFetch.compareAndSet(last, now);
    }

    private Mono<JWKSet> fetch() {
        return Mono.defer(() -> {
                    lastFetch.set(System.nanoTime());
                    return client.get().uri(properties.jwkSetUri()).accept(MediaType.APPLICATION_JSON)
                            .retrieve().bodyToMono(String.class);
                })
                .timeout(properties.jwksTimeout())
                .map(JwksCache::parse)
                .cache(set -> properties.jwksCacheTtl(), failure -> Duration.ZERO, () -> Duration.ZERO);
    }

    private static JWKSet parse(String json) {
        try {
            return JWKSet.parse(json);
        } catch (ParseException e) {
            throw new IllegalStateException("The JWKS is not a JWK set", e);
        }
    }
}
