package dev.visibility.auth.support;

import java.util.List;
import java.util.Set;
import java.util.UUID;

import dev.visibility.auth.accounts.AccountRepository;
import dev.visibility.auth.accounts.MemberRole;
import dev.visibility.auth.accounts.Plan;
import dev.visibility.auth.signin.MemberCredentials;
import dev.visibility.platform.security.Caller;
import dev.visibility.platform.testing.TestTokens;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Fresh accounts, projects and members for every test (so tests never depend on each other or
 * on their order), written through the service's own repository, and the internal tokens the
 * gateway would mint for them. Test-only; found by component scanning in every test context.
 */
@Component
public class TestAccounts {

    private final AccountRepository accounts;
    private final TransactionTemplate tx;
    private final JdbcClient jdbc;
    private final MemberCredentials credentials;

    public TestAccounts(AccountRepository accounts, TransactionTemplate tx, JdbcClient jdbc, MemberCredentials credentials) {
        this.accounts = accounts;
        this.jdbc = jdbc;
        this.tx = tx;
        this.credentials = credentials;
    }

    /** A browser (cookies kept) signed in as {@code member} on the service at {@code port}, with a fresh email and password. */
    public FormClient signedIn(int port, UUID member) {
        String email = "member-" + UUID.randomUUID() + "@example.com";
        setEmail(member, email);
        credentials.setPassword(member, "test member password");
        FormClient browser = new FormClient("http://localhost:" + port);
        FormClient.Page form = browser.get("/login");
        FormClient.Page signedIn = browser.post("/login", java.util.Map.of("email", email, "password", "test member password",
                "_csrf", form.csrf()));
        if (signedIn.location() == null || !signedIn.location().endsWith("/dashboard")) {
            throw new AssertionError("sign-in failed: " + signedIn.status() + " " + signedIn.location());
        }
        return browser;
    }

    /** An account with its owner and one project. */
    public record Team(UUID accountId, UUID ownerId, UUID projectId) {

        /** The owner's token for the account API: member and account, no project. */
        public String ownerBearer() {
            return memberBearer(accountId, ownerId);
        }
    }

    public Team team(Plan plan, String... features) {
        UUID account = account(plan);
        UUID owner = member(account, MemberRole.OWNER);
        return new Team(account, owner, project(account, "Project " + UUID.randomUUID(), features));
    }

    public UUID account(Plan plan) {
        return accounts.createAccount("Account " + UUID.randomUUID(), plan);
    }

    public UUID project(UUID accountId, String name, String... features) {
        return accounts.createProject(accountId, name, List.of(features));
    }

    public UUID member(UUID accountId, MemberRole role) {
        UUID unique = UUID.randomUUID();
        return accounts.createMember(accountId, unique + "@example.com", "Member " + unique, role);
    }

    public void grant(UUID projectId, UUID memberId, String... permissions) {
        tx.executeWithoutResult(status -> accounts.grant(projectId, memberId, List.of(permissions)));
    }

    /** Gives a member another email (sign-in tests use unique ones). */
    public void setEmail(UUID memberId, String email) {
        jdbc.sql("UPDATE members SET email = :email WHERE id = :id").param("email", email).param("id", memberId).update();
    }

    public void pause(UUID projectId) {
        accounts.setPaused(projectId, true);
    }

    public static String memberBearer(UUID accountId, UUID memberId) {
        return TestTokens.bearer(TestTokens.mint(
                new Caller(accountId.toString(), null, null, null, memberId.toString(), Set.of(), Set.of())));
    }

    /** What the gateway forwards for an API key of the project. */
    public static String keyBearer(UUID accountId, UUID projectId, Set<String> scopes) {
        return TestTokens.bearer(TestTokens.mint(new Caller(accountId.toString(), projectId.toString(),
                UUID.randomUUID().toString(), null, null, scopes, Set.of())));
    }

    /** The gateway's own token for {@code /internal/**}. */
    public static String internalBearer() {
        return TestTokens.bearer(TestTokens.mint(new Caller(null, null, null, null, null, Set.of("internal"), Set.of())));
    }
}
