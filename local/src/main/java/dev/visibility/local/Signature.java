package dev.visibility.local;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** Spec 6.3 and 6.4.1: lowercase hex HMAC-SHA256 of the raw body, keyed with the UTF-8 bytes of the signing secret. */
final class Signature {

    private Signature() {
    }

    static String sign(String secret, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    /** Constant-time comparison of the expected digest with the header; a missing header or another length fails (6.4.1). */
    static boolean verifies(String secret, byte[] body, String header) {
        if (secret == null || header == null) {
            return false;
        }
        return MessageDigest.isEqual(sign(secret, body).getBytes(StandardCharsets.US_ASCII),
                header.getBytes(StandardCharsets.US_ASCII));
    }
}
