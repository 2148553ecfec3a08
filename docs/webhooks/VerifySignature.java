import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Verifies a webhook delivery's X-Service-Signature (spec 6.4.1): lowercase hex HMAC-SHA256 of the
 * exact body bytes, keyed with the UTF-8 bytes of the signing secret, compared in constant time.
 *
 *   WEBHOOK_SECRET=whsec_... java docs/webhooks/VerifySignature.java body.json <X-Service-Signature>
 *
 * Prints "verified" and exits 0, or prints "REJECT" and exits 1. JDK 17+, nothing else.
 * (The secret comes from the environment so that it stays out of the shell history and process list.)
 */
public class VerifySignature {

    static boolean verify(String secret, byte[] rawBody, String signatureHeader) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        byte[] expected = HexFormat.of().formatHex(mac.doFinal(rawBody)).getBytes(StandardCharsets.US_ASCII);
        byte[] received = signatureHeader == null ? new byte[0] : signatureHeader.getBytes(StandardCharsets.US_ASCII);
        return MessageDigest.isEqual(expected, received); // constant time; unequal lengths are false
    }

    public static void main(String[] args) throws Exception {
        String secret = System.getenv("WEBHOOK_SECRET");
        if (args.length != 2 || secret == null || secret.isEmpty()) {
            System.err.println("usage: WEBHOOK_SECRET=whsec_... java VerifySignature.java <body file> <X-Service-Signature>");
            System.exit(2);
        }
        boolean ok = verify(secret, Files.readAllBytes(Path.of(args[0])), args[1]);
        System.out.println(ok ? "verified" : "REJECT");
        System.exit(ok ? 0 : 1);
    }
}
