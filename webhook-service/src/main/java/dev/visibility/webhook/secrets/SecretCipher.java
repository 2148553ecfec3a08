package dev.visibility.webhook.secrets;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.UUID;

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Encrypts signing secrets at rest with AES-GCM (DESIGN.md, Persistence). A stored value is
 * {@code version(1) || nonce(12) || ciphertext+tag(16)}; the subscription id is the associated
 * data, so a ciphertext copied to another row does not decrypt. Neither the key nor a secret ever
 * appears in an exception message or a log line.
 */
public final class SecretCipher {

    public static final String PROPERTY = "suite.webhook.secret-key";
    public static final String ENVIRONMENT_VARIABLE = "SUITE_WEBHOOK_SECRET_KEY";

    private static final byte VERSION = 1;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKeySpec key;

    private SecretCipher(byte[] key) {
        this.key = new SecretKeySpec(key, "AES");
    }

    /** The cipher for the configured key, or a start-up failure that says what to configure. */
    public static SecretCipher fromBase64Key(String base64Key) {
        if (base64Key == null || base64Key.isBlank()) {
            throw new IllegalStateException("Property " + PROPERTY + " (environment variable " + ENVIRONMENT_VARIABLE
                    + ") is not set: it must be the base64 of a 16, 24 or 32-byte AES key that encrypts the stored"
                    + " webhook signing secrets, for example the output of: head -c 32 /dev/urandom | base64");
        }
        byte[] key;
        try {
            key = Base64.getDecoder().decode(base64Key.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("Property " + PROPERTY + " (environment variable " + ENVIRONMENT_VARIABLE
                    + ") is not valid base64");
        }
        if (key.length != 16 && key.length != 24 && key.length != 32) {
            throw new IllegalStateException("Property " + PROPERTY + " (environment variable " + ENVIRONMENT_VARIABLE
                    + ") must decode to 16, 24 or 32 bytes, not " + key.length);
        }
        return new SecretCipher(key);
    }

    public byte[] encrypt(String secret, UUID subscriptionId) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(associatedData(subscriptionId));
            byte[] sealed = cipher.doFinal(secret.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.allocate(1 + NONCE_BYTES + sealed.length).put(VERSION).put(nonce).put(sealed).array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Could not encrypt a signing secret", e);
        }
    }

    public String decrypt(byte[] stored, UUID subscriptionId) {
        if (stored == null || stored.length < 1 + NONCE_BYTES + TAG_BITS / 8 || stored[0] != VERSION) {
            throw new IllegalStateException("A stored signing secret has an unknown format");
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, stored, 1, NONCE_BYTES));
            cipher.updateAAD(associatedData(subscriptionId));
            byte[] plain = cipher.doFinal(stored, 1 + NONCE_BYTES, stored.length - 1 - NONCE_BYTES);
            return new String(plain, StandardCharsets.UTF_8);
        } catch (GeneralSecurityException e) {
            // a wrong key, a tampered value or another row's value: never say more
            throw new IllegalStateException("A stored signing secret could not be decrypted with the configured key");
        }
    }

    private static byte[] associatedData(UUID subscriptionId) {
        return ("webhook-signing-secret:" + subscriptionId).getBytes(StandardCharsets.UTF_8);
    }
}
