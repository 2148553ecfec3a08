package dev.visibility.auth.accounts;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import dev.visibility.auth.config.Db;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** Accounts, projects, members and their per-project permissions. */
@Repository
public class AccountRepository {

    private static final String PROJECT_ACCESS = """
            SELECT p.id, p.account_id, p.name, p.paused, p.features, a.plan,
                   pm.member_id IS NOT NULL AS assigned, pm.permissions
            FROM projects p
            JOIN accounts a ON a.id = p.account_id
            LEFT JOIN project_members pm ON pm.project_id = p.id AND pm.member_id = :member
            """;

    private final JdbcClient jdbc;

    public AccountRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public UUID createAccount(String name, Plan plan) {
        return createAccount(UUID.randomUUID(), name, plan);
    }

    public UUID createAccount(UUID id, String name, Plan plan) {
        jdbc.sql("INSERT INTO accounts (id, name, plan) VALUES (:id, :name, :plan)")
                .param("id", id).param("name", name).param("plan", plan.value())
                .update();
        return id;
    }

    public UUID createProject(UUID accountId, String name, Collection<String> features) {
        return createProject(UUID.randomUUID(), accountId, name, features);
    }

    public UUID createProject(UUID id, UUID accountId, String name, Collection<String> features) {
        jdbc.sql("INSERT INTO projects (id, account_id, name, features) VALUES (:id, :account, :name, :features)")
                .param("id", id).param("account", accountId).param("name", name)
                .param("features", features.toArray(String[]::new))
                .update();
        return id;
    }

    public UUID createMember(UUID accountId, String email, String name, MemberRole role) {
        return createMember(UUID.randomUUID(), accountId, email, name, role);
    }

    public UUID createMember(UUID id, UUID accountId, String email, String name, MemberRole role) {
        jdbc.sql("INSERT INTO members (id, account_id, email, name, role) VALUES (:id, :account, :email, :name, :role)")
                .param("id", id).param("account", accountId).param("email", email).param("name", name)
                .param("role", role.value())
                .update();
        return id;
    }

    /** Sets a member's permissions on a project (replacing earlier ones); an empty set keeps them a member. */
    public void grant(UUID projectId, UUID memberId, Collection<String> permissions) {
        jdbc.sql("""
                INSERT INTO project_members (project_id, member_id, permissions) VALUES (:project, :member, :permissions)
                ON CONFLICT (project_id, member_id) DO UPDATE SET permissions = EXCLUDED.permissions""")
                .param("project", projectId).param("member", memberId)
                .param("permissions", permissions.toArray(String[]::new))
                .update();
    }

    public void setPaused(UUID projectId, boolean paused) {
        jdbc.sql("UPDATE projects SET paused = :paused WHERE id = :id")
                .param("paused", paused).param("id", projectId)
                .update();
    }

    public boolean anyAccountExists() {
        return jdbc.sql("SELECT EXISTS (SELECT 1 FROM accounts)").query(Boolean.class).single();
    }

    public Optional<Member> findMember(UUID memberId, UUID accountId) {
        return jdbc.sql("SELECT id, account_id, role FROM members WHERE id = :id AND account_id = :account")
                .param("id", memberId).param("account", accountId)
                .query((row, n) -> new Member(Db.uuid(row, "id"), Db.uuid(row, "account_id"),
                        MemberRole.of(row.getString("role"))))
                .optional();
    }

    /** A member by id alone (a signed-in member's session knows the id only). */
    public Optional<Member> findMember(UUID memberId) {
        return jdbc.sql("SELECT id, account_id, role FROM members WHERE id = :id")
                .param("id", memberId)
                .query((row, n) -> new Member(Db.uuid(row, "id"), Db.uuid(row, "account_id"),
                        MemberRole.of(row.getString("role"))))
                .optional();
    }

    /** The project when it belongs to the member's account; empty otherwise. */
    public Optional<ProjectAccess> findProject(Member member, UUID projectId) {
        return jdbc.sql(PROJECT_ACCESS + "WHERE p.id = :project AND p.account_id = :account")
                .param("member", member.id()).param("project", projectId).param("account", member.accountId())
                .query((row, n) -> projectAccess(row, member))
                .optional();
    }

    /** The projects the member belongs to: every project of the account for an owner, oldest first. */
    public List<ProjectAccess> projectsOf(Member member) {
        return jdbc.sql(PROJECT_ACCESS + """
                WHERE p.account_id = :account AND (:owner OR pm.member_id IS NOT NULL)
                ORDER BY p.created_at, p.id""")
                .param("member", member.id()).param("account", member.accountId()).param("owner", member.owner())
                .query((row, n) -> projectAccess(row, member))
                .list();
    }

    private static ProjectAccess projectAccess(ResultSet row, Member member) throws SQLException {
        boolean assigned = row.getBoolean("assigned");
        List<String> permissions = member.owner() ? Permissions.ALL : Db.texts(row, "permissions");
        return new ProjectAccess(Db.uuid(row, "id"), Db.uuid(row, "account_id"), row.getString("name"),
                Plan.of(row.getString("plan")), row.getBoolean("paused"), Db.texts(row, "features"),
                member.owner() || assigned, permissions);
    }
}
