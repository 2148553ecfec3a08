package dev.visibility.auth.keys;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import dev.visibility.auth.accounts.Plan;
import dev.visibility.auth.config.Db;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** {@code api_keys}: hashes and visible prefixes only, never a key. */
@Repository
public class ApiKeyRepository {

    private final JdbcClient jdbc;

    public ApiKeyRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Inserts a key; answers its creation time. {@code scopes} null means "all default scopes". */
    Instant insert(UUID id, UUID projectId, String name, NewApiKey key, List<String> scopes, UUID createdBy) {
        return insert(id, projectId, name, key, scopes, createdBy, null);
    }

    /** As {@link #insert(UUID, UUID, String, NewApiKey, List, UUID)}; a dashboard session's key ends at {@code sessionExpiresAt}. */
    Instant insert(UUID id, UUID projectId, String name, NewApiKey key, List<String> scopes, UUID createdBy,
            Instant sessionExpiresAt) {
        return jdbc.sql("""
                INSERT INTO api_keys (id, project_id, name, prefix, key_hash, scopes, created_by, session_expires_at)
                VALUES (:id, :project, :name, :prefix, :hash, :scopes, :createdBy, :sessionExpiresAt)
                RETURNING created_at""")
                .param("id", id).param("project", projectId).param("name", name)
                .param("prefix", key.visiblePrefix()).param("hash", key.hash())
                .param("scopes", scopes == null ? null : scopes.toArray(String[]::new), Types.ARRAY)
                .param("createdBy", createdBy, Types.OTHER)
                .param("sessionExpiresAt", Db.timestamp(sessionExpiresAt), Types.TIMESTAMP)
                .query((row, n) -> Db.instant(row, "created_at"))
                .single();
    }

    /** Dashboard session keys still active after their session's end: (key id, project id), oldest first. */
    List<UUID[]> expiredSessionKeys(int limit) {
        return jdbc.sql("""
                SELECT id, project_id FROM api_keys
                WHERE session_expires_at < now() AND revoked_at IS NULL
                ORDER BY session_expires_at LIMIT :limit""")
                .param("limit", limit)
                .query((row, n) -> new UUID[] {Db.uuid(row, "id"), Db.uuid(row, "project_id")})
                .list();
    }

    /** A project's keys, revoked ones included, newest first. */
    List<StoredApiKey> listByProject(UUID projectId) {
        return jdbc.sql("""
                SELECT id, project_id, name, prefix, scopes, created_at, revoked_at FROM api_keys
                WHERE project_id = :project ORDER BY created_at DESC, id DESC""")
                .param("project", projectId)
                .query((row, n) -> stored(row))
                .list();
    }

    /** Revokes an active key of the project; empty when there is none (unknown or already revoked). */
    Optional<Revoked> revoke(UUID keyId, UUID projectId) {
        return jdbc.sql("""
                UPDATE api_keys SET revoked_at = now()
                WHERE id = :id AND project_id = :project AND revoked_at IS NULL
                RETURNING key_hash, scopes, revoked_at""")
                .param("id", keyId).param("project", projectId)
                .query((row, n) -> new Revoked(row.getString("key_hash"), Db.nullableTexts(row, "scopes"),
                        Db.instant(row, "revoked_at")))
                .optional();
    }

    /** When a key of the project was revoked; empty when the project has no such key or it is active. */
    Optional<Instant> revokedAt(UUID keyId, UUID projectId) {
        return jdbc.sql("SELECT revoked_at FROM api_keys WHERE id = :id AND project_id = :project AND revoked_at IS NOT NULL")
                .param("id", keyId).param("project", projectId)
                .query((row, n) -> Db.instant(row, "revoked_at"))
                .optional();
    }

    /** The gateway's lookup: one probe of the unique hash index, joined to project and account. */
    public Optional<ActiveApiKey> findActiveByHash(String keyHash) {
        return jdbc.sql("""
                SELECT k.id, k.project_id, k.name, k.scopes, k.created_by, p.account_id, p.features, p.paused, a.plan
                FROM api_keys k
                JOIN projects p ON p.id = k.project_id
                JOIN accounts a ON a.id = p.account_id
                WHERE k.key_hash = :hash AND k.revoked_at IS NULL""")
                .param("hash", keyHash)
                .query((row, n) -> new ActiveApiKey(Db.uuid(row, "id"), Db.uuid(row, "project_id"),
                        Db.uuid(row, "account_id"), row.getString("name"),
                        ApiKeyScopes.effective(Db.nullableTexts(row, "scopes")),
                        Db.texts(row, "features"), Plan.of(row.getString("plan")),
                        row.getBoolean("paused"), Db.uuid(row, "created_by")))
                .optional();
    }

    record Revoked(String keyHash, List<String> scopes, Instant revokedAt) {
    }

    private static StoredApiKey stored(ResultSet row) throws SQLException {
        return new StoredApiKey(Db.uuid(row, "id"), Db.uuid(row, "project_id"), row.getString("name"),
                row.getString("prefix"), Db.nullableTexts(row, "scopes"),
                Db.instant(row, "created_at"), Db.instant(row, "revoked_at"));
    }
}
