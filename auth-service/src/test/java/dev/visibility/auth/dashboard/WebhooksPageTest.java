package dev.visibility.auth.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.auth.accounts.AccountRepository;
import dev.visibility.auth.accounts.Member;
import dev.visibility.auth.accounts.MemberRole;
import dev.visibility.auth.accounts.Permissions;
import dev.visibility.auth.accounts.Plan;
import dev.visibility.auth.keys.ApiKeyService;
import dev.visibility.auth.keys.ApiKeySummary;
import dev.visibility.auth.support.FormClient;
import dev.visibility.auth.support.FormClient.Page;
import dev.visibility.auth.support.TestAccounts;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Issue 20, the webhooks page (spec 5.11: Plus plan or above and {@code settings.manage}): who may
 * open it, and the life of the session's narrowed key it calls the public API with (auth-service
 * README, "Webhooks page"). Here the gateway is a port with no listener (503 on the page); the
 * calls through a real gateway and webhook-service are in system-tests' DashboardWebhooksSystemTest.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class WebhooksPageTest {

    @LocalServerPort
    int port;
    @Autowired
    TestAccounts accounts;
    @Autowired
    ApiKeyService keys;
    @Autowired
    AccountRepository accountRepository;

    private List<ApiKeySummary> sessionKeys(UUID ownerId, UUID projectId) {
        Member owner = accountRepository.findMember(ownerId).orElseThrow();
        return keys.list(owner, projectId.toString()).apiKeys().stream()
                .filter(k -> k.name().equals(SessionApiKeys.NAME)).toList();
    }

    @Test
    void theSessionKeyIsNarrowedToWebhooksReusedAndRevokedAtSignOut() {
        TestAccounts.Team team = accounts.team(Plan.PLUS);
        FormClient browser = accounts.signedIn(port, team.ownerId());
        assertThat(browser.get("/dashboard").body()).contains("class=\"webhooks-link\"");
        String page = "/dashboard/projects/" + team.projectId() + "/webhooks";

        Page first = browser.get(page);
        // no gateway listens in this module's tests: the page says so in the API's terms, never a 500
        assertThat(first.status()).isEqualTo(503);
        assertThat(first.body()).contains("could not be reached");
        List<ApiKeySummary> held = sessionKeys(team.ownerId(), team.projectId());
        assertThat(held).hasSize(1);
        assertThat(held.get(0).scopes()).containsExactlyInAnyOrder("webhooks.read", "webhooks.write");
        assertThat(held.get(0).defaultScopes()).isFalse();
        assertThat(held.get(0).revokedAt()).isNull();

        browser.get(page);
        assertThat(sessionKeys(team.ownerId(), team.projectId())).as("one key per session and project").hasSize(1);

        Page dashboard = browser.get("/dashboard");
        assertThat(browser.post("/logout", Map.of("_csrf", dashboard.csrf())).location()).endsWith("/login?signedOut");
        assertThat(sessionKeys(team.ownerId(), team.projectId())).singleElement()
                .satisfies(key -> assertThat(key.revokedAt()).as("revoked at sign-out").isNotNull());
    }

    @Test
    void aSessionKeyWhoseSessionEndedUnseenIsRevokedByTheSweep() {
        TestAccounts.Team team = accounts.team(Plan.PLUS);
        ApiKeyService.CreatedApiKey stale = keys.createSessionKey(team.projectId(), SessionApiKeys.NAME,
                SessionApiKeys.SCOPES, team.ownerId(), Instant.now().minusSeconds(60));
        ApiKeyService.CreatedApiKey live = keys.createSessionKey(team.projectId(), SessionApiKeys.NAME,
                SessionApiKeys.SCOPES, team.ownerId(), Instant.now().plusSeconds(3600));

        assertThat(keys.revokeExpiredSessionKeys()).isGreaterThanOrEqualTo(1);

        Map<String, Instant> revokedAt = new java.util.HashMap<>();
        sessionKeys(team.ownerId(), team.projectId()).forEach(k -> revokedAt.put(k.id(), k.revokedAt()));
        assertThat(revokedAt.get(stale.id().toString())).isNotNull();
        assertThat(revokedAt).containsKey(live.id().toString());
        assertThat(revokedAt.get(live.id().toString())).as("a live session's key stays").isNull();
    }

    @Test
    void onlyManagersOnPlusOrAboveOpenThePageAndNoKeyIsMadeForOthers() {
        TestAccounts.Team plus = accounts.team(Plan.PLUS);
        UUID viewer = accounts.member(plus.accountId(), MemberRole.MEMBER);
        accounts.grant(plus.projectId(), viewer, Permissions.PROJECT_VIEW);
        FormClient viewerBrowser = accounts.signedIn(port, viewer);
        assertThat(viewerBrowser.get("/dashboard").body()).doesNotContain("class=\"webhooks-link\"");
        Page refused = viewerBrowser.get("/dashboard/projects/" + plus.projectId() + "/webhooks");
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.body()).contains("settings.manage");

        TestAccounts.Team free = accounts.team(Plan.FREE);
        FormClient freeBrowser = accounts.signedIn(port, free.ownerId());
        assertThat(freeBrowser.get("/dashboard").body()).doesNotContain("class=\"webhooks-link\"");
        Page freePage = freeBrowser.get("/dashboard/projects/" + free.projectId() + "/webhooks");
        assertThat(freePage.status()).isEqualTo(403);
        assertThat(freePage.body()).contains("Webhooks need the Plus plan or above");
        Page freePost = freeBrowser.post("/dashboard/projects/" + free.projectId() + "/webhooks",
                Map.of("url", "https://example.com/hook", "event", "action.created", "_csrf", freePage.csrf()));
        assertThat(freePost.status()).isEqualTo(403);

        // another account's project: the same answer as a project that does not exist
        Page foreign = freeBrowser.get("/dashboard/projects/" + plus.projectId() + "/webhooks");
        assertThat(foreign.status()).isEqualTo(404);

        assertThat(sessionKeys(plus.ownerId(), plus.projectId())).isEmpty();
        assertThat(sessionKeys(free.ownerId(), free.projectId())).isEmpty();
    }
}
