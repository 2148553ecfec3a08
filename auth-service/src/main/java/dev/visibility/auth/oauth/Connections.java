package dev.visibility.auth.oauth;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import dev.visibility.auth.config.Db;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * {@code oauth_connections}: per authorization (one MCP connection), the project and capabilities
 * the member approved on the consent page. Tokens never carry more than this.
 */
@Repository
public class Connections {

    private final JdbcClient jdbc;

    public Connections(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public record Connection(String authorizationId, String registeredClientId, UUID memberId, UUID projectId,
            List<String> capabilities, Instant createdAt, Instant revokedAt) {

        public boolean active() {
            return revokedAt == null;
        }
    }

    void save(String authorizationId, String registeredClientId, UUID memberId, UUID projectId, Collection<String> capabilities) {
        jdbc.sql("""
                INSERT INTO oauth_connections (authorization_id, registered_client_id, member_id, project_id, capabilities)
                VALUES (:id, :client, :member, :project, :capabilities)
                ON CONFLICT (authorization_id) DO UPDATE SET project_id = EXCLUDED.project_id,
                    capabilities = EXCLUDED.capabilities""")
                .param("id", authorizationId).param("client", registeredClientId).param("member", memberId)
                .param("project", projectId).param("capabilities", capabilities.toArray(String[]::new))
                .update();
    }

    public Optional<Connection> find(String authorizationId) {
        return jdbc.sql("SELECT * FROM oauth_connections WHERE authorization_id = :id")
                .param("id", authorizationId)
                .query((row, n) -> connection(row))
                .optional();
    }

    /** A member's connections, newest first. */
    public List<Connection> ofMember(UUID memberId) {
        return jdbc.sql("SELECT * FROM oauth_connections WHERE member_id = :member ORDER BY created_at DESC")
                .param("member", memberId)
                .query((row, n) -> connection(row))
                .list();
    }

    /** Marks a member's connection revoked; false when it is not theirs or was revoked already. */
    public boolean revoke(String authorizationId, UUID memberId) {
        return jdbc.sql("""
                UPDATE oauth_connections SET revoked_at = now()
                WHERE authorization_id = :id AND member_id = :member AND revoked_at IS NULL""")
                .param("id", authorizationId).param("member", memberId)
                .update() == 1;
    }

    private static Connection connection(java.sql.ResultSet row) throws java.sql.SQLException {
        return new Connection(row.getString("authorization_id"), row.getString("registered_client_id"),
                Db.uuid(row, "member_id"), Db.uuid(row, "project_id"), Db.texts(row, "capabilities"),
                Db.instant(row, "created_at"), Db.instant(row, "revoked_at"));
    }
}
