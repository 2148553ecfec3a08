package dev.visibility.webhook.secrets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

import dev.visibility.webhook.support.Signatures;
import org.junit.jupiter.api.Test;

/**
 * Spec 6.3 and 6.4.2 with the signing keys kept between attempts: every signature is the lowercase
 * hex HMAC-SHA256 of the body with the secret stored at the time of the attempt; after a rotation
 * (a new stored value) the very next signature uses the new secret and no longer verifies with the
 * old one.
 */
class SigningKeysTest {

    private static final SecretCipher CIPHER = SecretCipher.fromBase64Key("e4BTdojzq2fYS8ovvEjmDczzqmsE1p5aJg8iQeUdF28=");
    private static final byte[] BODY = "{\"event\":\"action.created\",\"data\":{\"n\":1.10}}".getBytes(StandardCharsets.UTF_8);

    @Test
    void signsWithTheSecretStoredAtTheTimeOfEachAttempt() {
        SigningKeys keys = new SigningKeys(CIPHER);
        UUID webhook = UUID.randomUUID();
        String first = SigningSecrets.newSecret();
        byte[] stored = CIPHER.encrypt(first, webhook);

        String signature = keys.sign(webhook, stored, BODY);
        assertThat(signature).matches("[0-9a-f]{64}");
        assertThat(Signatures.verifies(first, BODY, signature)).isTrue();
        // the same key again (kept), the same signature
        assertThat(keys.sign(webhook, stored.clone(), BODY)).isEqualTo(signature);

        String rotated = SigningSecrets.newSecret();
        String afterRotation = keys.sign(webhook, CIPHER.encrypt(rotated, webhook), BODY);
        assertThat(Signatures.verifies(rotated, BODY, afterRotation)).isTrue();
        assertThat(Signatures.verifies(first, BODY, afterRotation)).isFalse();
    }

    @Test
    void aStoredValueOfAnotherWebhookDoesNotSign() {
        SigningKeys keys = new SigningKeys(CIPHER);
        byte[] othersSecret = CIPHER.encrypt(SigningSecrets.newSecret(), UUID.randomUUID());
        assertThatThrownBy(() -> keys.sign(UUID.randomUUID(), othersSecret, BODY)).isInstanceOf(IllegalStateException.class);
    }
}
