package dev.visibility.platform.web.idempotency;

import java.time.Duration;

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

    private final DatabaseClient db;
    private final IdempotencyCodec codec;
    private final Duration lifetime;
    private final Duration abandonedAfter;

    public IdempotencyKeys(DatabaseClient db, String secret, Duration lifetime, Duration abandonedAfter) {
        this.db = db;
        this.lifetime = lifetime;
        this.abandonedAfter = abandonedAfter;
        this.codec = new IdempotencyCodec(secret);
    }

    /**
     * Claims {@code key} for a request: a new key, one older than the lifetime, or one whose first
     * request was abandoned (a crash: no answer after {@code abandonedAfter}) is claimed; otherwise
     * answers what the first request left.
     */
    public Mono<Claim> claim(String scope, String idemKey, String requestHash) {
        return db.sql(IdempotencyCodec.CLAIM)
                .bind("scope", scope)
                .bind("key", idemKey)
                .bind("hash", requestHash)
                .bind("lifetime", (double) lifetime.toSeconds())
                .bind("abandoned", (double) abandonedAfter.toSeconds())
                .fetch().rowsUpdated()
                .flatMap(claimed -> claimed > 0 ? Mono.<Claim>just(new Claimed()) : existing(scope, idemKey));
    }

    private Mono<Claim> existing(String scope, String idemKey) {
        return db.sql(IdempotencyCodec.EXISTING)
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
                            codec.open(sealed));
                })
                .one();
    }

    /** Stores the first answer. */
    public Mono<Void> complete(String scope, String idemKey, int status, String contentType, byte[] body) {
        DatabaseClient.GenericExecuteSpec spec = db.sql(IdempotencyCodec.COMPLETE)
                .bind("scope", scope)
                .bind("key", idemKey)
                .bind("status", status)
                .bind("body", java.nio.ByteBuffer.wrap(codec.seal(body)));
        spec = contentType == null ? spec.bindNull("type", String.class) : spec.bind("type", contentType);
        return spec.then();
    }

    /** Forgets a claim whose request did not finish with an answer worth replaying (a 5xx, a failure). */
    public Mono<Void> release(String scope, String idemKey) {
        return db.sql(IdempotencyCodec.RELEASE)
                .bind("scope", scope)
                .bind("key", idemKey)
                .then();
    }
}
