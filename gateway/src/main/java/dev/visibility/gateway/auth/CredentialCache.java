package dev.visibility.gateway.auth;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import com.github.benmanes.caffeine.cache.AsyncLoadingCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.visibility.gateway.auth.EdgePrincipal.Kind;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Caffeine cache of credential hash → principal, with negative caching of unknown hashes.
 * Concurrent misses for one hash share one lookup. A known credential is looked up again in the
 * background once half its time to live has passed, while requests go on using the entry, so a key
 * in use never waits for auth-service; the entry still expires at its time to live when the
 * lookups fail. Revocations replace the entry with a negative one at once (see
 * {@link KeyEventsListener}), and a background lookup that was under way then is discarded.
 */
@Component
public class CredentialCache implements MeterBinder {

    private final AsyncLoadingCache<String, Optional<EdgePrincipal>> cache;
    private final CredentialLookups authService;

    @Autowired
    public CredentialCache(CredentialLookups authService, EdgeAuthProperties properties) {
        this(authService, properties, Ticker.systemTicker());
    }

    CredentialCache(CredentialLookups authService, EdgeAuthProperties properties, Ticker ticker) {
        this.authService = authService;
        long positive = properties.positiveTtl().toNanos();
        long negative = properties.negativeTtl().toNanos();
        this.cache = Caffeine.newBuilder()
                .ticker(ticker)
                .maximumSize(properties.cacheSize())
                .expireAfter(new Expiry<String, Optional<EdgePrincipal>>() {
                    @Override
                    public long expireAfterCreate(String key, Optional<EdgePrincipal> value, long now) {
                        return value.isPresent() ? positive : negative;
                    }

                    @Override
                    public long expireAfterUpdate(String key, Optional<EdgePrincipal> value, long now, long current) {
                        return value.isPresent() ? positive : negative;
                    }

                    @Override
                    public long expireAfterRead(String key, Optional<EdgePrincipal> value, long now, long current) {
                        return current;
                    }
                })
                .refreshAfterWrite(properties.positiveTtl().dividedBy(2))
                .recordStats()
                .buildAsync((key, executor) -> lookup(key).toFuture());
    }

    /** Hits, misses, loads and evictions as {@code cache.*} meters named {@code credentials} (docs/operations.md). */
    @Override
    public void bindTo(MeterRegistry registry) {
        CaffeineCacheMetrics.monitor(registry, cache, "credentials");
    }

    private Mono<Optional<EdgePrincipal>> lookup(String key) {
        String hash = key.substring(2);
        if (key.startsWith("k:")) {
            return authService.apiKey(hash)
                    .map(found -> found.map(k -> new EdgePrincipal(Kind.API_KEY, k.keyId(), k.projectId(), k.accountId(),
                            k.scopes(), k.features(), k.plan(), k.apiAccess(), k.paused(), k.createdBy())));
        }
        return authService.memberToken(hash)
                .map(found -> found.map(m -> new EdgePrincipal(Kind.MEMBER, m.memberId(), null, m.accountId(),
                        null, null, null, true, false)));
    }

    public Mono<Optional<EdgePrincipal>> apiKey(String hash) {
        return Mono.fromFuture(() -> cache.get("k:" + hash), true);
    }

    public Mono<Optional<EdgePrincipal>> memberToken(String hash) {
        return Mono.fromFuture(() -> cache.get("m:" + hash), true);
    }

    /** The API key's principal when this gateway already knows it as valid, without a lookup. */
    public Optional<EdgePrincipal> knownApiKey(String hash) {
        CompletableFuture<Optional<EdgePrincipal>> entry = cache.getIfPresent("k:" + hash);
        if (entry == null || !entry.isDone() || entry.isCompletedExceptionally()) {
            return Optional.empty();
        }
        return entry.getNow(Optional.empty());
    }

    /** A revoked key: refused from now on, whatever a lookup in flight may answer. */
    public void revoked(String keyHash) {
        cache.put("k:" + keyHash, CompletableFuture.completedFuture(Optional.empty()));
    }

    /** A key created or changed: the next request looks it up again. */
    public void changed(String keyHash) {
        cache.synchronous().invalidate("k:" + keyHash);
    }
}
