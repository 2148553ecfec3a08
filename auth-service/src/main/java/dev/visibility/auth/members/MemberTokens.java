package dev.visibility.auth.members;

import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import dev.visibility.auth.config.Db;
import dev.visibility.auth.secrets.Secrets;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Opaque access tokens of signed-in members ({@code mat_<64 hex>}), stored as SHA-256 like API
 * keys. The gateway resolves them through {@code /internal/v1/member-tokens/{sha256hex}}.
 */
@Repository
public class MemberTokens {

    public static final String PREFIX = "mat_";

    private final JdbcClient jdbc;

    public MemberTokens(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** A member of an account, as a valid token identifies them. */
    public record TokenOwner(UUID memberId, UUID accountId) {
    }

    /** Issues a token valid until {@code expiresAt}; answers the token, which is stored nowhere. */
    public String issue(UUID memberId, Instant expiresAt) {
        String token = PREFIX + Secrets.randomHex();
        jdbc.sql("""
                INSERT INTO member_tokens (id, member_id, token_hash, expires_at)
                VALUES (:id, :member, :hash, :expiresAt)""")
                .param("id", UUID.randomUUID()).param("member", memberId)
                .param("hash", Secrets.sha256Hex(token)).param("expiresAt", Db.timestamp(expiresAt))
                .update();
        return token;
    }

    /** The owner of an unexpired, unrevoked token: one probe of the unique hash index. */
    public Optional<TokenOwner> findActive(String tokenHash) {
        return jdbc.sql("""
                SELECT t.member_id, m.account_id FROM member_tokens t JOIN members m ON m.id = t.member_id
                WHERE t.token_hash = :hash AND t.expires_at > now() AND t.revoked_at IS NULL""")
                .param("hash", tokenHash)
                .query((row, n) -> new TokenOwner(Db.uuid(row, "member_id"), Db.uuid(row, "account_id")))
                .optional();
    }
}
