package dev.visibility.auth.members;

import java.time.Instant;
import java.util.UUID;

import dev.visibility.auth.secrets.Secrets;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Mono;

/**
 * Opaque access tokens of signed-in members ({@code mat_<64 hex>}), stored as SHA-256 like API
 * keys. The gateway resolves them through {@code /internal/v1/member-tokens/{sha256hex}}.
 */
@Repository
public class MemberTokens {

    public static final String PREFIX = "mat_";

    private final DatabaseClient db;

    public MemberTokens(DatabaseClient db) {
        this.db = db;
    }

    /** A member of an account, as a valid token identifies them. */
    public record TokenOwner(UUID memberId, UUID accountId) {
    }

    /** Issues a token valid until {@code expiresAt}; answers the token, which is stored nowhere. */
    public Mono<String> issue(UUID memberId, Instant expiresAt) {
        return Mono.defer(() -> {
            String token = PREFIX + Secrets.randomHex();
            return db.sql("""
                    INSERT INTO member_tokens (id, member_id, token_hash, expires_at)
                    VALUES (:id, :member, :hash, :expiresAt)""")
                    .bind("id", UUID.randomUUID()).bind("member", memberId)
                    .bind("hash", Secrets.sha256Hex(token)).bind("expiresAt", expiresAt)
                    .then().thenReturn(token);
        });
    }

    /** The owner of an unexpired, unrevoked token: one probe of the unique hash index. */
    public Mono<TokenOwner> findActive(String tokenHash) {
        return db.sql("""
                SELECT t.member_id, m.account_id FROM member_tokens t JOIN members m ON m.id = t.member_id
                WHERE t.token_hash = :hash AND t.expires_at > now() AND t.revoked_at IS NULL""")
                .bind("hash", tokenHash)
                .map(row -> new TokenOwner(row.get("member_id", UUID.class), row.get("account_id", UUID.class)))
                .one();
    }
}
