package dev.visibility.gateway.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import dev.visibility.platform.error.Unavailable;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * The gateway's credential cache (DESIGN.md request path 2): a key in use is looked up again in
 * the background, so no request waits for auth-service; revocations win over such a lookup; and
 * without auth-service a known key still expires at its time to live.
 */
class CredentialCacheTest {

    private static final String HASH = "a".repeat(64);
    private static final EdgeAuthProperties PROPERTIES =
            new EdgeAuthProperties("svc", Duration.ofSeconds(30), Duration.ofSeconds(5), Duration.ofSeconds(3), 1000L, 60);

    private final AtomicLong nanos = new AtomicLong();
    private final Source source = new Source();
    private final CredentialCache cache = new CredentialCache(source, PROPERTIES, nanos::get);

    @Test
    void aKeyInUseIsLookedUpAgainInTheBackgroundWhileRequestsGoOn() {
        source.scopes.set(Set.of("actions.read"));
        assertThat(scopes()).containsExactly("actions.read");
        assertThat(source.lookups).hasValue(1);

        advance(Duration.ofSeconds(16));
        source.scopes.set(Set.of("actions.read", "actions.write"));
        source.hold();
        // answered from the cache at once although the lookup it starts has not answered
        assertThat(scopes()).containsExactly("actions.read");
        assertThat(source.lookups).hasValue(2);
        source.release();
        await(() -> scopes().size() == 2);
        assertThat(source.lookups).hasValue(2);
    }

    /** Issue 19: the member who created the key becomes the principal's key creator, then the token's. */
    @Test
    void theKeysCreatorReachesThePrincipalAndItsCaller() {
        source.scopes.set(Set.of("agents.run"));
        source.createdBy.set("3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b");
        EdgePrincipal principal = cache.apiKey(HASH).block().orElseThrow();
        assertThat(principal.keyCreatorId()).isEqualTo("3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b");
        assertThat(principal.toCaller().keyCreatorId()).isEqualTo("3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b");
        assertThat(principal.toCaller().keyId()).isEqualTo("key-1");
    }

    /** auth-service's lookup answer (its record ApiKeyLookup) is read with the creator, and without one. */
    @Test
    void theLookupAnswerIsReadWithAndWithoutItsCreator() {
        tools.jackson.databind.json.JsonMapper json = tools.jackson.databind.json.JsonMapper.builder().build();
        String answer = """
                {"keyId":"k","projectId":"p","accountId":"a","name":"n","scopes":["agents.run"],"features":[],
                "plan":"plus","apiAccess":true,"paused":false%s}""";
        assertThat(json.readValue(answer.formatted(",\"createdBy\":\"m-1\""), AuthServiceClient.KeyLookup.class).createdBy())
                .isEqualTo("m-1");
        AuthServiceClient.KeyLookup old = json.readValue(answer.formatted(""), AuthServiceClient.KeyLookup.class);
        assertThat(old.createdBy()).isNull();
        assertThat(old.scopes()).containsExactly("agents.run");
    }

    @Test
    void aRevocationWinsOverABackgroundLookupUnderWay() {
        source.scopes.set(Set.of("actions.read"));
        assertThat(cache.apiKey(HASH).block()).isPresent();
        advance(Duration.ofSeconds(16));
        source.hold();
        assertThat(cache.apiKey(HASH).block()).isPresent();
        cache.revoked(HASH);
        source.release();
        assertThat(cache.apiKey(HASH).block()).isEmpty();
        advance(Duration.ofSeconds(1));
        assertThat(cache.apiKey(HASH).block()).isEmpty();
    }

    @Test
    void withoutAuthServiceAKnownKeyServesUntilItsTimeToLiveAndThenIs503() {
        source.scopes.set(Set.of("actions.read"));
        assertThat(cache.apiKey(HASH).block()).isPresent();
        source.failing.set(true);
        advance(Duration.ofSeconds(16));
        assertThat(cache.apiKey(HASH).block()).isPresent();
        await(() -> source.lookups.get() == 2);
        assertThat(cache.apiKey(HASH).block()).isPresent();
        advance(Duration.ofSeconds(15));
        assertThatThrownBy(() -> cache.apiKey(HASH).block()).isInstanceOf(Unavailable.class);
    }

    @Test
    void concurrentMissesShareOneLookup() {
        source.scopes.set(Set.of("actions.read"));
        source.hold();
        Mono<Optional<EdgePrincipal>> first = cache.apiKey(HASH);
        Mono<Optional<EdgePrincipal>> second = cache.apiKey(HASH);
        var a = first.toFuture();
        var b = second.toFuture();
        source.release();
        assertThat(a.join()).isPresent();
        assertThat(b.join()).isPresent();
        assertThat(source.lookups).hasValue(1);
    }

    private Set<String> scopes() {
        return cache.apiKey(HASH).block().orElseThrow().scopes();
    }

    private void advance(Duration by) {
        nanos.addAndGet(by.toNanos());
    }

    private static void await(Supplier<Boolean> condition) {
        Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10)).until(condition::get);
    }

    /** auth-service's answers, held back on demand. */
    private static final class Source implements CredentialLookups {

        final AtomicReference<Set<String>> scopes = new AtomicReference<>();
        final AtomicInteger lookups = new AtomicInteger();
        final AtomicReference<Boolean> failing = new AtomicReference<>(false);
        final AtomicReference<String> createdBy = new AtomicReference<>();
        private volatile Sinks.Empty<Void> gate;

        void hold() {
            gate = Sinks.empty();
        }

        void release() {
            Sinks.Empty<Void> current = gate;
            gate = null;
            if (current != null) {
                current.tryEmitEmpty();
            }
        }

        @Override
        public Mono<Optional<AuthServiceClient.KeyLookup>> apiKey(String sha256Hex) {
            lookups.incrementAndGet();
            Sinks.Empty<Void> current = gate;
            Mono<Void> wait = current == null ? Mono.empty() : current.asMono();
            return wait.then(Mono.defer(() -> failing.get()
                    ? Mono.error(new Unavailable("Credentials cannot be checked right now; retry later"))
                    : Mono.just(Optional.of(new AuthServiceClient.KeyLookup("key-1", "project-1", "account-1", "CI",
                            scopes.get(), Set.of(), "plus", true, false, createdBy.get())))));
        }

        @Override
        public Mono<Optional<AuthServiceClient.MemberLookup>> memberToken(String sha256Hex) {
            return Mono.just(Optional.empty());
        }
    }
}
