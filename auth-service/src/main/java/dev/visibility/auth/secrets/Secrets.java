package dev.visibility.auth.secrets;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * Random secrets and their SHA-256 digests. Only digests are stored (spec 5.2); a secret lives
 * in memory until it is handed to its owner once, and is never logged.
 */
public final class Secrets {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final HexFormat HEX = HexFormat.of();
    private static final Pattern SHA256_HEX = Pattern.compile("^[0-9a-f]{64}$");

    private Secrets() {
    }

    /** 32 random bytes from {@link SecureRandom}, as 64 lowercase hex characters. */
    public static String randomHex() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return HEX.formatHex(bytes);
    }

    /** A password of 24 random URL-safe characters (144 bits), for seeded members. */
    public static String randomPassword() {
        byte[] bytes = new byte[18];
        RANDOM.nextBytes(bytes);
        return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** The SHA-256 of the UTF-8 bytes of {@code secret}, as 64 lowercase hex characters. */
    public static String sha256Hex(String secret) {
        try {
            return HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    public static boolean isSha256Hex(String value) {
        return value != null && SHA256_HEX.matcher(value).matches();
    }
}
