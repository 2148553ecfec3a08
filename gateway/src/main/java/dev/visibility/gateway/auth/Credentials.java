package dev.visibility.gateway.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/** Bearer credential formats (spec 5.1) and their SHA-256 lookup hashes (spec 5.2). */
public final class Credentials {

    private static final Pattern MEMBER_TOKEN = Pattern.compile("^mat_[0-9a-f]{64}$");

    private final Pattern apiKey;

    public Credentials(String prefix) {
        this.apiKey = Pattern.compile("^" + Pattern.quote(prefix) + "_live_[0-9a-f]{64}$");
    }

    /** The token of an {@code Authorization: Bearer <token>} header, or null. */
    public static String bearer(String header) {
        if (header == null || header.length() < 8 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String token = header.substring(7).trim();
        return token.isEmpty() || token.length() > 512 ? null : token;
    }

    public boolean isApiKey(String token) {
        return apiKey.matcher(token).matches();
    }

    public static boolean isMemberToken(String token) {
        return MEMBER_TOKEN.matcher(token).matches();
    }

    public static String sha256Hex(String value) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
