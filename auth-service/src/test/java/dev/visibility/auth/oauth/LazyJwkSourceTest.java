package dev.visibility.auth.oauth;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKMatcher;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The signing keys are read when a token is first signed or the JWKS first asked for, once, and not at start. */
class LazyJwkSourceTest {

    private static final JWKSelector ANY = new JWKSelector(new JWKMatcher.Builder().build());

    @Test
    void theKeysAreReadAtTheFirstRequestOnlyAndKeptAfterwards() throws Exception {
        JWK key = new RSAKeyGenerator(2048).keyID(UUID.randomUUID().toString()).generate();
        AtomicInteger reads = new AtomicInteger();
        LazyJwkSource source = new LazyJwkSource(() -> {
            reads.incrementAndGet();
            return new JWKSet(key);
        });

        assertThat(reads).hasValue(0);
        List<JWK> first = source.get(ANY, null);
        List<JWK> second = source.get(ANY, null);

        assertThat(first).extracting(JWK::getKeyID).containsExactly(key.getKeyID());
        assertThat(second).extracting(JWK::getKeyID).containsExactly(key.getKeyID());
        assertThat(reads).hasValue(1);
    }

    @Test
    void aReadThatFailsIsAKeySourceErrorAndTheNextRequestTriesAgain() throws Exception {
        JWK key = new RSAKeyGenerator(2048).keyID("k1").generate();
        AtomicInteger reads = new AtomicInteger();
        LazyJwkSource source = new LazyJwkSource(() -> {
            if (reads.incrementAndGet() == 1) {
                throw new IllegalStateException("database unreachable");
            }
            return new JWKSet(key);
        });

        assertThatThrownBy(() -> source.get(ANY, null)).isInstanceOf(KeySourceException.class)
                .hasMessageContaining("database unreachable");
        assertThat(source.get(ANY, null)).extracting(JWK::getKeyID).containsExactly("k1");
        assertThat(reads).hasValue(2);
    }
}
