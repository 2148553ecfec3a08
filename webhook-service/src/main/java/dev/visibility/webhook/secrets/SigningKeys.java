package dev.visibility.webhook.secrets;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs delivery bodies (spec 6.3, {@code X-Service-Signature}) without redoing per attempt what
 * only changes with the secret: the stored secret is decrypted once per webhook and value of its
 * ciphertext (a rotation stores a new ciphertext, so the next attempt decrypts and signs with the
 * new secret: spec 6.4.2 holds), and each thread keeps its own {@code HmacSHA256} instance instead
 * of looking one up per attempt. At most {@value #MAX_ENTRIES} webhooks' keys are kept; beyond
 * that the cache starts again. The keys live only in memory, never in a log line.
 */
public final class SigningKeys {

    static final int MAX_ENTRIES = 10_000;

    private static final HexFormat HEX = HexFormat.of();
    private static final ThreadLocal<Mac> MACS = ThreadLocal.withInitial(() -> {
        try {
            return Mac.getInstance("HmacSHA256");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is part of every JDK", e);
        }
    });

    private record Entry(byte[] ciphertext, SecretKeySpec key) {
    }

    private final SecretCipher cipher;
    private final Map<UUID, Entry> keys = new ConcurrentHashMap<>();

    public SigningKeys(SecretCipher cipher) {
        this.cipher = cipher;
    }

    /**
     * Lowercase hex HMAC-SHA256 of {@code body} keyed with the webhook's current secret, given as
     * stored; an {@link IllegalStateException} when it does not decrypt.
     */
    public String sign(UUID webhookId, byte[] secretCiphertext, byte[] body) {
        Entry entry = keys.get(webhookId);
        if (entry == null || !Arrays.equals(entry.ciphertext(), secretCiphertext)) {
            String secret = cipher.decrypt(secretCiphertext, webhookId);
            entry = new Entry(secretCiphertext.clone(), new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            if (keys.size() >= MAX_ENTRIES) {
                keys.clear();
            }
            keys.put(webhookId, entry);
        }
        Mac mac = MACS.get();
        try {
            mac.init(entry.key());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("An HMAC key was refused", e);
        }
        return HEX.formatHex(mac.doFinal(body));
    }
}
