package dev.visibility.auth.keys;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import dev.visibility.auth.accounts.Plan;
import io.r2dbc.spi.Readable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** {@code api_keys}: hashes and visible prefixes only, never a key. */
@Repository
public class ApiKeyRepository {

    private final DatabaseClient db;

    public ApiKeyRepository(DatabaseClient db) {
        this.db = db;
    }

    /** Inserts a key; answers its creation time. {@code scopes} null means "all default scopes". */
    Mono<Instant> insert(UUID id, UUID projectId, String name, NewApiKey key, List<String> scopes, UUID createdBy) {
        DatabaseClient.GenericExecuteSpec spec = db.sql("""
                INSERT INTO api_keys (id, project_id, name, prefix, key_hash, scopes, created_by)
                VALUES (:id, :project, :name, :prefix, :hash, :scopes, :createdBy)
                RETURNING created_at""")
                .bind("id", id).bind("project", projectId).bind("name", name)
                .bind("prefix", key.visiblePrefix()).bind("hash", key.hash());
        spec = scopes == null ? spec.bindNull("scopes", String[].class) : spec.bind("scopes", scopes.toArray(String[]::new));
        spec = createdBy == null ? spec.bindNull("createdBy", UUID.class) : spec.bind("createdBy", createdBy);
        return spec.map(row -> row.get("created_at", Instant.class)).one();
    }

    /** A project's keys, revoked ones included, newest first. */
    Flux<StoredApiKey> listByProject(UUID projectId) {
        return db.sql("""
                SELECT id, project_id, name, prefix, scopes, created_at, revoked_at FROM api_keys
                WHERE project_id = :project ORDER BY created_at DESC, id DESC""")
                .bind("project", projectId)
                .map(ApiKeyRepository::stored)
                .all();
    }

    /** Revokes an active key of the project; empty when there is none (unknown or already revoked). */
    Mono<Revoked> revoke(UUID keyId, UUID projectId) {
        return db.sql("""
                UPDATE api_keys SET revoked_at = now()
                WHERE id = :id AND project_id = :project AND revoked_at IS NULL
                RETURNING key_hash, scopes, revoked_at""")
                .bind("id", keyId).bind("project", projectId)
                .map(row -> new Revoked(row.get("key_hash", String.class), nullableTexts(row.get("scopes", String[].class)),
                        row.get("revoked_at", Instant.class)))
                .one();
    }

    /** When a key of the project was revoked; empty when the project has no such key or it is active. */
    Mono<Instant> revokedAt(UUID keyId, UUID projectId) {
        return db.sql("SELECT revoked_at FROM api_keys WHERE id = :id AND project_id = :project AND revoked_at IS NOT NULL")
                .bind("id", keyId).bind("project", projectId)
                .map(row -> row.get("revoked_at", Instant.class))
                .one();
    }

    /** The gateway's lookup: one probe of the unique hash index, joined to project and account. */
    public Mono<ActiveApiKey> findActiveByHash(String keyHash) {
        return db.sql("""
                SELECT k.id, k.project_id, k.name, k.scopes, k.created_by, p.account_id, p.features, p.paused, a.plan
                FROM api_keys k
                JOIN projects p ON p.id = k.project_id
                JOIN accounts a ON a.id = p.account_id
                WHERE k.key_hash = :hash AND k.revoked_at IS NULL""")
                .bind("hash", keyHash)
                .map(row -> new ActiveApiKey(row.get("id", UUID.class), row.get("project_id", UUID.class),
                        row.get("account_id", UUID.class), row.get("name", String.class),
                        ApiKeyScopes.effective(nullableTexts(row.get("scopes", String[].class))),
                        texts(row.get("features", String[].class)), Plan.of(row.get("plan", String.class)),
                        Boolean.TRUE.equals(row.get("paused", Boolean.class)), row.get("created_by", UUID.class)))
                .one();
    }

    record Revoked(String keyHash, List<String> scopes, Instant revokedAt) {
    }

    private static StoredApiKey stored(Readable row) {
        return new StoredApiKey(row.get("id", UUID.class), row.get("project_id", UUID.class), row.get("name", String.class),
                row.get("prefix", String.class), nullableTexts(row.get("scopes", String[].class)),
                row.get("created_at", Instant.class), row.get("revoked_at", Instant.class));
    }

    private static List<String> nullableTexts(String[] values) {
        return values == null ? null : List.copyOf(Arrays.asList(values));
    }

    private static List<String> texts(String[] values) {
        return values == null ? List.of() : List.copyOf(Arrays.asList(values));
    }
}
