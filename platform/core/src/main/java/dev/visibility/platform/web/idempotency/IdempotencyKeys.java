package dev.visibility.platform.web.idempotency;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Arrays;

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Mono;

/**
 * The stored first answers of POSTs sent with an {@code Idempotency-Key} (table
 * {@code idempotency_keys} of the service's schema). Bodies are encrypted with AES-GCM under a key
 * derived from {@code suite.cursor.secret}: a first answer can carry a secret shown once (a
 * webhook's signing secret), which must not rest in the database in the clear.
 */
public class IdempotencyKeys {

    /** What a claim found. */
    public sealed interface Claim {
    }

    /** This request owns the key now: run it, then {@link #complete} or {@link #release}. */
    public record Claimed() implements Claim {
    }

    /** The key's first request finished: its answer. */
    public record Completed(String requestHash, int status, String contentType, byte[] body) implements Claim {
    }

    /** The key's first request is still running. */
    public record InProgress(String requestHash) implements Claim {
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    private final DatabaseClient db;
    private final SecretKeySpec key;
    private final Duration lifetime;
    private final Duration abandonedAfter;

    public IdempotencyKeys(DatabaseClient db, String secret, Duration lifetime, Duration abandonedAfter) {
        this.db = db;
        this.lifetime = lifetime;
        this.abandonedAfter = abandonedAfter;
        try {
            byte[] derived = MessageDigest.getInstance("SHA-256")
                    .digest(("suite idempotency v1\n" + secret).getBytes(StandardCharsets.UTF_8));
            this.key = new SecretKeySpec(derived, "AES");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Claims {@code key} for a request: a new key, one older than the lifetime, or one whose first
     * request was abandoned (a crash: no answer after {@code abandonedAfter}) is claimed; otherwise
     * answers what the first request left.
     */
    public Mono<Claim> claim(String scope, String idemKey, String requestHash) {
        return db.sql("""
                INSERT INTO idempotency_keys (scope, idem_key, request_hash) VALUES (:scope, :key, :hash)
                ON CONFLICT (scope, idem_key) DO UPDATE
                    SET request_hash = EXCLUDED.request_hash, created_at = now(), completed_at = NULL,
                        status = NULL, content_type = NULL, body = NULL
                    WHERE idempotency_keys.created_at < now() - make_interval(secs => :lifetime)
                       OR (idempotency_keys.completed_at IS NULL
                           AND idempotency_keys.request_hash = EXCLUDED.request_hash
                           AND idempotency_keys.created_at < now() - make_interval(secs => :abandoned))
                RETURNING 1""")
                .bind("scope", scope)
                .bind("key", idemKey)
                .bind("hash", requestHash)
                .bind("lifetime", (double) lifetime.toSeconds())
                .bind("abandoned", (double) abandonedAfter.toSeconds())
                .fetch().rowsUpdated()
                .flatMap(claimed -> claimed > 0 ? Mono.<Claim>just(new Claimed()) : existing(scope, idemKey));
    }

    private Mono<Claim> existing(String scope, String idemKey) {
        return db.sql("SELECT request_hash, completed_at IS NOT NULL AS done, status, content_type, body "
                        + "FROM idempotency_keys WHERE scope = :scope AND idem_key = :key")
                .bind("scope", scope)
                .bind("key", idemKey)
                .map((row, meta) -> {
                    String hash = row.get("request_hash", String.class);
                    if (!Boolean.TRUE.equals(row.get("done", Boolean.class))) {
                        return (Claim) new InProgress(hash);
                    }
                    java.nio.ByteBuffer stored = row.get("body", java.nio.ByteBuffer.class);
                    byte[] sealed = new byte[stored.remaining()];
                    stored.get(sealed);
                    return new Completed(hash, row.get("status", Integer.class), row.get("content_type", String.class),
                            open(sealed));
                })
                .one();
    }

    /** Stores the first answer. */
    public Mono<Void> complete(String scope, String idemKey, int status, String contentType, byte[] body) {
        DatabaseClient.GenericExecuteSpec spec = db.sql("""
                UPDATE idempotency_keys SET completed_at = now(), status = :status, content_type = :type, body = :body
                WHERE scope = :scope AND idem_key = :key""")
                .bind("scope", scope)
                .bind("key", idemKey)
                .bind("status", status)
                .bind("body", java.nio.ByteBuffer.wrap(seal(body)));
        spec = contentType == null ? spec.bindNull("type", String.class) : spec.bind("type", contentType);
        return spec.then();
    }

    /** Forgets a claim whose request did not finish with an answer worth replaying (a 5xx, a failure). */
    public Mono<Void> release(String scope, String idemKey) {
        return db.sql("DELETE FROM idempotency_keys WHERE scope = :scope AND idem_key = :key AND completed_at IS NULL")
                .bind("scope", scope)
                .bind("key", idemKey)
                .then();
    }

    private byte[] seal(byte[] plain) {
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

    private byte[] open(byte[] sealed) {
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, sealed, 0, 12));
            return cipher.doFinal(sealed, 12, sealed.length - 12);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Could not decrypt a stored answer", e);
        }
    }
}
