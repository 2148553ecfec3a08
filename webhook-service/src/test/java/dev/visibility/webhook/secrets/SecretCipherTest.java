package dev.visibility.webhook.secrets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Base64;
import java.util.HexFormat;
import java.util.UUID;

import org.junit.jupiter.api.Test;

/** DESIGN.md, Persistence: secrets encrypted with AES-GCM, key from configuration, never in a message. */
class SecretCipherTest {

    private static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);
    private final SecretCipher cipher = SecretCipher.fromBase64Key(KEY);

    @Test
    void aSecretRoundTripsOnlyForItsOwnSubscription() {
        UUID id = UUID.randomUUID();
        String secret = SigningSecrets.newSecret();
        byte[] stored = cipher.encrypt(secret, id);
        assertThat(cipher.decrypt(stored, id)).isEqualTo(secret);
        // a random nonce: the same secret never encrypts to the same bytes
        assertThat(cipher.encrypt(secret, id)).isNotEqualTo(stored);
        assertThatThrownBy(() -> cipher.decrypt(stored, UUID.randomUUID())).isInstanceOf(IllegalStateException.class)
                .hasMessageNotContaining(secret);
        byte[] tampered = stored.clone();
        tampered[tampered.length - 1] ^= 1;
        assertThatThrownBy(() -> cipher.decrypt(tampered, id)).isInstanceOf(IllegalStateException.class);
        SecretCipher otherKey = SecretCipher.fromBase64Key(Base64.getEncoder().encodeToString(new byte[16]));
        assertThatThrownBy(() -> otherKey.decrypt(stored, id)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aMissingOrMalformedKeyFailsTheStartWithAMessageThatSaysWhatToSet() {
        for (String bad : new String[] {null, "", "  "}) {
            assertThatThrownBy(() -> SecretCipher.fromBase64Key(bad)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("suite.webhook.secret-key").hasMessageContaining("SUITE_WEBHOOK_SECRET_KEY");
        }
        assertThatThrownBy(() -> SecretCipher.fromBase64Key("not base64!")).hasMessageContaining("not valid base64");
        String shortKey = Base64.getEncoder().encodeToString(new byte[10]);
        assertThatThrownBy(() -> SecretCipher.fromBase64Key(shortKey)).hasMessageContaining("16, 24 or 32 bytes")
                .hasMessageNotContaining(shortKey);
    }

    @Test
    void signaturesAreLowercaseHexHmacSha256OfTheBody() {
        // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?"
        assertThat(SigningSecrets.sign("Jefe", "what do ya want for nothing?".getBytes()))
                .isEqualTo("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
        assertThat(SigningSecrets.newSecret()).matches("^whsec_[0-9a-f]{64}$");
        assertThat(HexFormat.of().parseHex(SigningSecrets.newSecret().substring(6))).hasSize(32);
    }
}
