package dev.visibility.platform.web.idempotency;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import dev.visibility.platform.error.ApiException;
import dev.visibility.platform.error.ErrorCode;
import dev.visibility.platform.error.InvalidRequest;
import dev.visibility.platform.security.Caller;

/**
 * What the WebFlux filter and the servlet one (auth-service) share of {@code Idempotency-Key}
 * (issue 22): the header's rules, the key's scope per caller, the request's fingerprint, the
 * statements on {@code idempotency_keys}, the refusals, and the AES-GCM sealing of stored answers
 * under a key derived from {@code suite.cursor.secret}.
 */
public final class IdempotencyCodec {

    public static final String HEADER = "Idempotency-Key";
    public static final String REPLAYED = "Idempotent-Replayed";

    /**
     * Claims a key: inserts it, or takes over one older than the lifetime, or one whose first
     * request (with the same fingerprint) never answered within {@code :abandoned} seconds; a row
     * counts as claimed. Parameters {@code :scope :key :hash :lifetime :abandoned}.
     */
    public static final String CLAIM = """
            INSERT INTO idempotency_keys (scope, idem_key, request_hash) VALUES (:scope, :key, :hash)
            ON CONFLICT (scope, idem_key) DO UPDATE
                SET request_hash = EXCLUDED.request_hash, created_at = now(), completed_at = NULL,
                    status = NULL, content_type = NULL, body = NULL
                WHERE idempotency_keys.created_at < now() - make_interval(secs => :lifetime)
                   OR (idempotency_keys.completed_at IS NULL
                       AND idempotency_keys.request_hash = EXCLUDED.request_hash
                       AND idempotency_keys.created_at < now() - make_interval(secs => :abandoned))
            RETURNING 1""";
    /** What the key's first request left. Parameters {@code :scope :key}. */
    public static final String EXISTING = "SELECT request_hash, completed_at IS NOT NULL AS done, status, content_type, body "
            + "FROM idempotency_keys WHERE scope = :scope AND idem_key = :key";
    /** Stores the first answer. Parameters {@code :scope :key :status :type :body}. */
    public static final String COMPLETE = """
            UPDATE idempotency_keys SET completed_at = now(), status = :status, content_type = :type, body = :body
            WHERE scope = :scope AND idem_key = :key""";
    /** Forgets a claim whose request gave no answer worth replaying. Parameters {@code :scope :key}. */
    public static final String RELEASE = "DELETE FROM idempotency_keys WHERE scope = :scope AND idem_key = :key AND completed_at IS NULL";

    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKeySpec key;

    public IdempotencyCodec(String secret) {
        try {
            byte[] derived = MessageDigest.getInstance("SHA-256")
                    .digest(("suite idempotency v1\n" + secret).getBytes(StandardCharsets.UTF_8));
            this.key = new SecretKeySpec(derived, "AES");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** 400 {@code invalid_idempotency_key} unless the header is 1 to 255 visible ASCII characters. */
    public static void requireValid(String idemKey) {
        if (idemKey.isEmpty() || idemKey.length() > 255 || !idemKey.chars().allMatch(c -> c >= 0x21 && c <= 0x7e)) {
            throw new InvalidRequest("Idempotency-Key must be 1 to 255 visible ASCII characters", "invalid_idempotency_key");
        }
    }

    /** Keys are per caller: the API key, else the OAuth client, else the member, else the account. */
    public static String scope(Caller caller) {
        if (caller == null) {
            return "anonymous";
        }
        if (caller.keyId() != null) {
            return "key:" + caller.keyId();
        }
        if (caller.clientId() != null) {
            return "client:" + caller.clientId();
        }
        if (caller.userId() != null) {
            return "member:" + caller.userId();
        }
        return "account:" + caller.accountId();
    }

    /** The request's fingerprint: method, raw path and body bytes. */
    public static String requestHash(String rawPath, byte[] body) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(("POST " + rawPath + "\n").getBytes(StandardCharsets.UTF_8));
            digest.update(body);
            return HexFormat.of().formatHex(digest.digest());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** 400 {@code idempotency_key_reused}: the key came with another request. */
    public static ApiException reused() {
        return new InvalidRequest("This Idempotency-Key was used with another request (method, path or body)",
                "idempotency_key_reused");
    }

    /** 409 {@code idempotency_key_in_use} (the first request still runs), or {@link #reused()} for another request. */
    public static ApiException inProgress(boolean sameRequest) {
        return sameRequest ? new ApiException(ErrorCode.CONFLICT, 409,
                "A request with this Idempotency-Key is still running; retry later", "idempotency_key_in_use", Map.of())
                : reused();
    }

    public byte[] seal(byte[] plain) {
        try {
            byte[] iv = new byte[12];
            RANDOM.nextBytes(iv);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, iv));
            byte[] sealed = cipher.doFinal(plain);
            byte[] out = Arrays.copyOf(iv, iv.length + sealed.length);
            System.arraycopy(sealed, 0, out, iv.length, sealed.length);
            return out;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Could not encrypt a stored answer", e);
        }
    }

    public byte[] open(byte[] sealed) {
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, sealed, 0, 12));
            return cipher.doFinal(sealed, 12, sealed.length - 12);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Could not decrypt a stored answer", e);
        }
    }
}
