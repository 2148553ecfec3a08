package dev.visibility.platform.cursor;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import dev.visibility.platform.error.InvalidParameter;

/**
 * Opaque paging cursors (DESIGN.md, Cursors): base64url text carrying a position, the
 * fingerprint of the scope it was issued for, its issue time and an optional expiry, authenticated
 * with HMAC-SHA256. A cursor used with another scope, tampered with, expired or longer than 2000
 * characters (spec 8) is a 400 naming the {@code cursor} parameter.
 *
 * <p>Layout before base64url: {@code v1|<fingerprint>|<issuedAt>|<expiresAt or 0>|<position>},
 * then {@code .} and the base64url MAC of those bytes.
 */
public final class CursorCodec {

    public static final int MAX_LENGTH = 2000;
    public static final String PARAMETER = "cursor";

    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private final SecretKeySpec key;
    private final Clock clock;

    public CursorCodec(byte[] secret, Clock clock) {
        if (secret.length < 32) {
            throw new IllegalArgumentException("The cursor secret must have at least 32 bytes");
        }
        this.key = new SecretKeySpec(secret, "HmacSHA256");
        this.clock = clock;
    }

    public CursorCodec(byte[] secret) {
        this(secret, Clock.systemUTC());
    }

    /**
     * The fingerprint of a scope: everything a cursor is only valid with (project, test, run,
     * filters, page size...). Parts are separated unambiguously before hashing.
     */
    public static String fingerprint(Object... parts) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (Object part : parts) {
                byte[] bytes = String.valueOf(part).getBytes(StandardCharsets.UTF_8);
                digest.update(Integer.toString(bytes.length).getBytes(StandardCharsets.US_ASCII));
                digest.update((byte) ':');
                digest.update(bytes);
            }
            return ENCODER.encodeToString(Arrays.copyOf(digest.digest(), 16));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A cursor that never expires. */
    public String encode(String scopeFingerprint, String position) {
        return encode(scopeFingerprint, position, null);
    }

    /** A cursor for {@code position} in the given scope; {@code ttl} null means no expiry. */
    public String encode(String scopeFingerprint, String position, Duration ttl) {
        long issuedAt = clock.instant().getEpochSecond();
        long expiresAt = ttl == null ? 0 : issuedAt + ttl.toSeconds();
        byte[] payload = ("v1|" + scopeFingerprint + "|" + issuedAt + "|" + expiresAt + "|" + position)
                .getBytes(StandardCharsets.UTF_8);
        String cursor = ENCODER.encodeToString(payload) + "." + ENCODER.encodeToString(mac(payload));
        if (cursor.length() > MAX_LENGTH) {
            throw new IllegalStateException("A cursor position is too long to encode");
        }
        return cursor;
    }

    /** The position carried by a cursor issued for this scope, or a 400 for any other cursor. */
    public Decoded decode(String cursor, String scopeFingerprint) {
        if (cursor.length() > MAX_LENGTH) {
            throw invalid("is longer than " + MAX_LENGTH + " characters");
        }
        int dot = cursor.indexOf('.');
        if (dot <= 0 || dot != cursor.lastIndexOf('.')) {
            throw invalid("is not a cursor issued by this API; pass next_cursor unchanged");
        }
        byte[] payload;
        byte[] signature;
        try {
            payload = DECODER.decode(cursor.substring(0, dot));
            signature = DECODER.decode(cursor.substring(dot + 1));
        } catch (IllegalArgumentException e) {
            throw invalid("is not a cursor issued by this API; pass next_cursor unchanged");
        }
        if (!MessageDigest.isEqual(mac(payload), signature)) {
            throw invalid("is not a cursor issued by this API; pass next_cursor unchanged");
        }
        String[] fields = new String(payload, StandardCharsets.UTF_8).split("\\|", 5);
        if (fields.length != 5 || !"v1".equals(fields[0])) {
            throw invalid("is not a cursor issued by this API; pass next_cursor unchanged");
        }
        if (!MessageDigest.isEqual(fields[1].getBytes(StandardCharsets.UTF_8),
                scopeFingerprint.getBytes(StandardCharsets.UTF_8))) {
            throw invalid("was issued for another scope; repeat the call with the same parameters, or start again without a cursor");
        }
        Instant issuedAt = Instant.ofEpochSecond(Long.parseLong(fields[2]));
        long expiresAt = Long.parseLong(fields[3]);
        if (expiresAt != 0 && clock.instant().getEpochSecond() >= expiresAt) {
            throw invalid("has expired; start again without a cursor");
        }
        return new Decoded(fields[4], issuedAt);
    }

    private byte[] mac(byte[] payload) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal(payload);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException(e);
        }
    }

    private static InvalidParameter invalid(String what) {
        return new InvalidParameter(PARAMETER, "Parameter '" + PARAMETER + "' " + what);
    }

    /** A verified cursor: the position to continue from and when the cursor was issued. */
    public record Decoded(String position, Instant issuedAt) {
    }
}
