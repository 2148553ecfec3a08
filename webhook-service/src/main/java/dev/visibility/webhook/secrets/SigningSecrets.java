package dev.visibility.webhook.secrets;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signing secrets and signatures (spec 6.3, 6.4). A secret is {@code whsec_} followed by 64
 * lowercase hex characters (32 random bytes); the HMAC key is the UTF-8 bytes of the whole
 * string, exactly what a receiver passes to its HMAC function or to {@code openssl -hmac}.
 */
public final class SigningSecrets {

    public static final String PREFIX = "whsec_";

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final HexFormat HEX = HexFormat.of();

    private SigningSecrets() {
    }

    public static String newSecret() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return PREFIX + HEX.formatHex(bytes);
    }

    /** Lowercase hex HMAC-SHA256 of {@code body}, keyed with the secret (the X-Service-Signature value). */
    public static String sign(String secret, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HEX.formatHex(mac.doFinal(body));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HMAC-SHA256 is part of every JDK", e);
        }
    }
}
