package dev.visibility.webhook.support;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** What a receiver does (spec 6.4.1), written independently of the service's own signing code. */
public final class Signatures {

    private Signatures() {
    }

    public static String hmacHex(String secret, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(body));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Constant-time comparison of the expected and received hex digests; a length mismatch fails. */
    public static boolean verifies(String secret, byte[] body, String signatureHeader) {
        if (signatureHeader == null) {
            return false;
        }
        return MessageDigest.isEqual(hmacHex(secret, body).getBytes(StandardCharsets.US_ASCII),
                signatureHeader.getBytes(StandardCharsets.US_ASCII));
    }
}
