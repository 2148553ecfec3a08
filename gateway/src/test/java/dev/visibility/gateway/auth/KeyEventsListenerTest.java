package dev.visibility.gateway.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import dev.visibility.platform.events.ApiKeyChanged;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.testing.SharedInfrastructure;
import dev.visibility.platform.testing.TestKafka;
import org.junit.jupiter.api.Test;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * DESIGN.md request path 6 and issue 22: a revocation on {@code auth.keys} reaches the gateway's
 * cache at once, and one published while the listener was disconnected is applied when it is
 * back (it resumes from its positions instead of seeking to the end again). Real Kafka broker.
 */
class KeyEventsListenerTest {

    private static final Duration WITHIN = Duration.ofSeconds(30);
    private static final EdgeAuthProperties PROPERTIES =
            new EdgeAuthProperties("svc", Duration.ofMinutes(10), Duration.ofSeconds(5), Duration.ofSeconds(3), 1000L, 60);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final AtomicInteger lookups = new AtomicInteger();
    private final CredentialCache cache = new CredentialCache(new ValidKeys(), PROPERTIES);

    @Test
    void aRevocationPublishedWhileDisconnectedIsAppliedOnReconnect() {
        KafkaProperties kafka = new KafkaProperties();
        kafka.setBootstrapServers(List.of(SharedInfrastructure.kafka().getBrokersAsString()));
        KeyEventsListener listener = new KeyEventsListener(kafka, cache, JSON);
        String seenLive = randomHash();
        String revokedWhileAway = randomHash();
        try {
            listener.start();
            await("the listener's first positions").atMost(WITHIN).until(() -> !listener.positions().isEmpty());
            assertThat(cache.apiKey(seenLive).block()).isPresent();
            publishRevocation(seenLive);
            await("a live revocation applied").atMost(WITHIN).until(() -> cache.apiKey(seenLive).block().isEmpty());

            assertThat(cache.apiKey(revokedWhileAway).block()).isPresent();
            listener.stop();
            publishRevocation(revokedWhileAway);
            // disconnected: the cached entry (ten minutes to live) still admits the key
            assertThat(cache.apiKey(revokedWhileAway).block()).isPresent();

            listener.start();
            await("the revocation published while disconnected applied after the reconnect").atMost(WITHIN)
                    .until(() -> cache.apiKey(revokedWhileAway).block().isEmpty());
            // from the cache's revocation, not from a new lookup at auth-service
            assertThat(lookups).hasValue(2);
        } finally {
            listener.stop();
        }
    }

    private static void publishRevocation(String hash) {
        ApiKeyChanged revoked = new ApiKeyChanged(UUID.randomUUID(), ApiKeyChanged.Change.REVOKED, hash, "key-1",
                "project-1", Set.of(), Instant.now());
        TestKafka.publish(Topics.AUTH_KEYS, hash, JSON.writeValueAsString(revoked));
    }

    private static String randomHash() {
        return (UUID.randomUUID().toString() + UUID.randomUUID()).replace("-", "");
    }

    /** auth-service's answers: every key is valid until revoked. */
    private final class ValidKeys implements CredentialLookups {

        @Override
        public Mono<Optional<AuthServiceClient.KeyLookup>> apiKey(String sha256Hex) {
            lookups.incrementAndGet();
            return Mono.just(Optional.of(new AuthServiceClient.KeyLookup("key-1", "project-1", "account-1", "CI",
                    Set.of("actions.read"), Set.of(), "plus", true, false, null)));
        }

        @Override
        public Mono<Optional<AuthServiceClient.MemberLookup>> memberToken(String sha256Hex) {
            return Mono.just(Optional.empty());
        }
    }
}
