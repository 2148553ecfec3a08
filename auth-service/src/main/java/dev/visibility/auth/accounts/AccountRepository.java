package dev.visibility.auth.accounts;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

import io.r2dbc.spi.Readable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

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

    private final DatabaseClient db;

    public AccountRepository(DatabaseClient db) {
        this.db = db;
    }

    public Mono<UUID> createAccount(String name, Plan plan) {
        return createAccount(UUID.randomUUID(), name, plan);
    }

    public Mono<UUID> createAccount(UUID id, String name, Plan plan) {
        return db.sql("INSERT INTO accounts (id, name, plan) VALUES (:id, :name, :plan)")
                .bind("id", id).bind("name", name).bind("plan", plan.value())
                .then().thenReturn(id);
    }

    public Mono<UUID> createProject(UUID accountId, String name, Collection<String> features) {
        return createProject(UUID.randomUUID(), accountId, name, features);
    }

    public Mono<UUID> createProject(UUID id, UUID accountId, String name, Collection<String> features) {
        return db.sql("INSERT INTO projects (id, account_id, name, features) VALUES (:id, :account, :name, :features)")
                .bind("id", id).bind("account", accountId).bind("name", name)
                .bind("features", features.toArray(String[]::new))
                .then().thenReturn(id);
    }

    public Mono<UUID> createMember(UUID accountId, String email, String name, MemberRole role) {
        return createMember(UUID.randomUUID(), accountId, email, name, role);
    }

    public Mono<UUID> createMember(UUID id, UUID accountId, String email, String name, MemberRole role) {
        return db.sql("INSERT INTO members (id, account_id, email, name, role) VALUES (:id, :account, :email, :name, :role)")
                .bind("id", id).bind("account", accountId).bind("email", email).bind("name", name)
                .bind("role", role.value())
                .then().thenReturn(id);
    }

    /** Sets a member's permissions on a project (replacing earlier ones); an empty set keeps them a member. */
    public Mono<Void> grant(UUID projectId, UUID memberId, Collection<String> permissions) {
        return db.sql("""
                INSERT INTO project_members (project_id, member_id, permissions) VALUES (:project, :member, :permissions)
                ON CONFLICT (project_id, member_id) DO UPDATE SET permissions = EXCLUDED.permissions""")
                .bind("project", projectId).bind("member", memberId)
                .bind("permissions", permissions.toArray(String[]::new))
                .then();
    }

    public Mono<Void> setPaused(UUID projectId, boolean paused) {
        return db.sql("UPDATE projects SET paused = :paused WHERE id = :id")
                .bind("paused", paused).bind("id", projectId)
                .then();
    }

    public Mono<Boolean> anyAccountExists() {
        return db.sql("SELECT EXISTS (SELECT 1 FROM accounts) AS present")
                .map(row -> row.get("present", Boolean.class))
                .one();
    }

    public Mono<Member> findMember(UUID memberId, UUID accountId) {
        return db.sql("SELECT id, account_id, role FROM members WHERE id = :id AND account_id = :account")
                .bind("id", memberId).bind("account", accountId)
                .map(row -> new Member(row.get("id", UUID.class), row.get("account_id", UUID.class),
                        MemberRole.of(row.get("role", String.class))))
                .one();
    }

    /** The project when it belongs to the member's account; empty otherwise. */
    public Mono<ProjectAccess> findProject(Member member, UUID projectId) {
        return db.sql(PROJECT_ACCESS + "WHERE p.id = :project AND p.account_id = :account")
                .bind("member", member.id()).bind("project", projectId).bind("account", member.accountId())
                .map(row -> projectAccess(row, member))
                .one();
    }

    /** The projects the member belongs to: every project of the account for an owner, oldest first. */
    public Flux<ProjectAccess> projectsOf(Member member) {
        return db.sql(PROJECT_ACCESS + """
                WHERE p.account_id = :account AND (:owner OR pm.member_id IS NOT NULL)
                ORDER BY p.created_at, p.id""")
                .bind("member", member.id()).bind("account", member.accountId()).bind("owner", member.owner())
                .map(row -> projectAccess(row, member))
                .all();
    }

    private static ProjectAccess projectAccess(Readable row, Member member) {
        boolean assigned = Boolean.TRUE.equals(row.get("assigned", Boolean.class));
        String[] granted = row.get("permissions", String[].class);
        List<String> permissions = member.owner() ? Permissions.ALL
                : granted == null ? List.of() : List.copyOf(Arrays.asList(granted));
        return new ProjectAccess(row.get("id", UUID.class), row.get("account_id", UUID.class),
                row.get("name", String.class), Plan.of(row.get("plan", String.class)),
                Boolean.TRUE.equals(row.get("paused", Boolean.class)), texts(row.get("features", String[].class)),
                member.owner() || assigned, permissions);
    }

    static List<String> texts(String[] values) {
        return values == null ? List.of() : List.copyOf(Arrays.asList(values));
    }
}
