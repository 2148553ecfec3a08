package dev.visibility.gateway.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Bearer credential formats (spec 5.1) and their SHA-256 lookup hashes (spec 5.2). */
public final class Credentials {

    private static final String MEMBER_TOKEN_PREFIX = "mat_";
    private static final int SECRET_HEX_DIGITS = 64;
    private static final HexFormat HEX = HexFormat.of();
    /** A SHA-256 digest to clone: cheaper per request than a provider lookup ({@code getInstance}). */
    private static final MessageDigest SHA_256;

    static {
        try {
            SHA_256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private final String apiKeyPrefix;

    public Credentials(String prefix) {
        this.apiKeyPrefix = prefix + "_live_";
    }

    /** The token of an {@code Authorization: Bearer <token>} header, or null. */
    public static String bearer(String header) {
        if (header == null || header.length() < 8 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String token = header.substring(7).trim();
        return token.isEmpty() || token.length() > 512 ? null : token;
    }

    /** {@code <prefix>_live_} and 64 lower-case hex digits, nothing else. */
    public boolean isApiKey(String token) {
        return prefixedSecret(token, apiKeyPrefix);
    }

    /** {@code mat_} and 64 lower-case hex digits, nothing else. */
    public static boolean isMemberToken(String token) {
        return prefixedSecret(token, MEMBER_TOKEN_PREFIX);
    }

    private static boolean prefixedSecret(String token, String prefix) {
        if (token.length() != prefix.length() + SECRET_HEX_DIGITS || !token.startsWith(prefix)) {
            return false;
        }
        for (int i = prefix.length(); i < token.length(); i++) {
            char c = token.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    public static String sha256Hex(String value) {
        MessageDigest digest;
        try {
            digest = (MessageDigest) SHA_256.clone();
        } catch (CloneNotSupportedException e) {
            try {
                digest = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException unavailable) {
                throw new IllegalStateException(unavailable);
            }
        }
        return HEX.formatHex(digest.digest(value.getBytes(StandardCharsets.UTF_8)));
    }
}
