package dev.visibility.gateway.auth;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import dev.visibility.gateway.auth.EdgePrincipal.Kind;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Caffeine cache of credential hash → principal, with negative caching of unknown hashes.
 * Concurrent misses for one hash share one lookup. Revocations replace the entry with a negative
 * one at once (see {@link KeyEventsListener}); entries also expire on their own.
 */
@Component
public class CredentialCache {

    private final AsyncCache<String, Optional<EdgePrincipal>> cache;
    private final AuthServiceClient authService;

    public CredentialCache(AuthServiceClient authService, EdgeAuthProperties properties) {
        this.authService = authService;
        long positive = properties.positiveTtl().toNanos();
        long negative = properties.negativeTtl().toNanos();
        this.cache = Caffeine.newBuilder()
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
                .buildAsync();
    }

    public Mono<Optional<EdgePrincipal>> apiKey(String hash) {
        return Mono.fromFuture(() -> cache.get("k:" + hash, (key, executor) -> authService.apiKey(hash)
                .map(found -> found.map(k -> new EdgePrincipal(Kind.API_KEY, k.keyId(), k.projectId(), k.accountId(),
                        k.scopes(), k.features(), k.plan(), k.apiAccess(), k.paused())))
                .toFuture()), true);
    }

    public Mono<Optional<EdgePrincipal>> memberToken(String hash) {
        return Mono.fromFuture(() -> cache.get("m:" + hash, (key, executor) -> authService.memberToken(hash)
                .map(found -> found.map(m -> new EdgePrincipal(Kind.MEMBER, m.memberId(), null, m.accountId(),
                        null, null, null, true, false)))
                .toFuture()), true);
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
