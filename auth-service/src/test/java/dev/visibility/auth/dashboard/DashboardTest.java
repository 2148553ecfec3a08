package dev.visibility.auth.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.visibility.auth.accounts.MemberRole;
import dev.visibility.auth.accounts.Permissions;
import dev.visibility.auth.accounts.Plan;
import dev.visibility.auth.secrets.Secrets;
import dev.visibility.auth.support.FormClient;
import dev.visibility.auth.support.FormClient.Page;
import dev.visibility.auth.support.TestAccounts;
import dev.visibility.platform.testing.Http;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Issue 20, dashboard: the API keys page (spec 5.2, 5.3; DESIGN.md Account API) with the full key
 * shown once, visible prefixes and scopes, revoke after confirmation, create and revoke for
 * members with settings.manage only.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class DashboardTest {

    static final Pattern KEY = Pattern.compile("svc_live_[0-9a-f]{64}");

    @LocalServerPort
    int port;
    @Autowired
    TestAccounts accounts;

    private TestAccounts.Team team;
    private WebTestClient api;

    @BeforeEach
    void setUp() {
        team = accounts.team(Plan.PLUS);
        api = Http.client(port);
    }

    private int lookup(String key) {
        return api.get().uri("/internal/v1/api-keys/" + Secrets.sha256Hex(key))
                .header(HttpHeaders.AUTHORIZATION, TestAccounts.internalBearer()).exchange()
                .expectBody().returnResult().getStatus().value();
    }

    @Test
    void managerCreatesAKeySeenOnceUsesItAndRevokesItAfterConfirmation() {
        FormClient browser = accounts.signedIn(port, team.ownerId());
        Page dashboard = browser.get("/dashboard");
        assertThat(dashboard.body()).contains(team.projectId().toString(), "API keys");

        String keysPath = "/dashboard/projects/" + team.projectId() + "/api-keys";
        Page keys = browser.get(keysPath);
        assertThat(keys.status()).isEqualTo(200);
        assertThat(keys.body()).contains("id=\"create-key\"");

        Page created = browser.post(keysPath, Map.of("name", "CI pipeline", "scopeMode", "narrowed",
                "scope", List.of("actions.read", "visibility.read"), "_csrf", keys.csrf()));
        assertThat(created.status()).isEqualTo(200);
        assertThat(created.headers().firstValue("Cache-Control")).hasValue("no-store");
        Matcher matcher = KEY.matcher(created.body());
        assertThat(matcher.find()).isTrue();
        String key = matcher.group();
        assertThat(created.body()).contains("visibility.read, actions.read", "id=\"copy-key\"");
        // the key works at once (the gateway's lookup), and the list shows only its prefix
        assertThat(lookup(key)).isEqualTo(200);
        Page listed = browser.get(keysPath);
        assertThat(listed.body()).contains("CI pipeline", key.substring(0, 12) + "…").doesNotContain(key)
                .contains("visibility.read, actions.read");

        Matcher revokeLink = Pattern.compile("href=\"(/dashboard/projects/[^\"]+/revoke)\"").matcher(listed.body());
        assertThat(revokeLink.find()).isTrue();
        Page confirm = browser.get(revokeLink.group(1));
        assertThat(confirm.body()).contains("Revoke for good", key.substring(0, 12));
        assertThat(lookup(key)).as("nothing is revoked before the confirmation").isEqualTo(200);
        Page revoked = browser.post(revokeLink.group(1), Map.of("_csrf", confirm.csrf()));
        assertThat(revoked.status()).isEqualTo(302);
        assertThat(lookup(key)).isEqualTo(404);
        assertThat(browser.get(keysPath).body()).contains("revoked", "The key was revoked");
    }

    @Test
    void memberWithoutSettingsManageSeesNoCreateOrRevokeAndIsRefused() {
        UUID viewer = accounts.member(team.accountId(), MemberRole.MEMBER);
        accounts.grant(team.projectId(), viewer, Permissions.PROJECT_VIEW);
        FormClient browser = accounts.signedIn(port, viewer);
        String keysPath = "/dashboard/projects/" + team.projectId() + "/api-keys";
        Page keys = browser.get(keysPath);
        assertThat(keys.status()).isEqualTo(200);
        assertThat(keys.body()).doesNotContain("id=\"create-key\"").doesNotContain("revoke-link")
                .contains("needs the settings.manage permission");
        Page refused = browser.post(keysPath, Map.of("name", "sneaky", "_csrf", keys.csrf()));
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.body()).contains("settings.manage").doesNotContainPattern(KEY.pattern());
    }

    @Test
    void badNamesAndOtherAccountsProjectsAreShownAsProblems() {
        FormClient browser = accounts.signedIn(port, team.ownerId());
        String keysPath = "/dashboard/projects/" + team.projectId() + "/api-keys";
        Page keys = browser.get(keysPath);
        Page blank = browser.post(keysPath, Map.of("name", "  ", "_csrf", keys.csrf()));
        assertThat(blank.status()).isEqualTo(400);
        assertThat(blank.body()).contains("name");
        TestAccounts.Team other = accounts.team(Plan.PLUS);
        assertThat(browser.get("/dashboard/projects/" + other.projectId() + "/api-keys").status()).isEqualTo(404);
        assertThat(browser.get("/dashboard/projects/not-a-uuid/api-keys").status()).isEqualTo(400);
    }
}
