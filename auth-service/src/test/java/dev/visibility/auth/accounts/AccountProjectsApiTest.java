package dev.visibility.auth.accounts;

import static dev.visibility.platform.testing.Http.data;
import static dev.visibility.platform.testing.Http.error;
import static dev.visibility.platform.testing.Http.json;
import static dev.visibility.platform.testing.Http.meta;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import dev.visibility.auth.support.TestAccounts;
import dev.visibility.auth.support.TestAccounts.Team;
import dev.visibility.platform.testing.Http;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.test.web.reactive.server.WebTestClient;

/** {@code GET /api/v2/account/projects}: the projects a member belongs to, with their permissions. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class AccountProjectsApiTest {

    @LocalServerPort
    int port;
    @Autowired
    TestAccounts accounts;

    private WebTestClient client;

    @BeforeEach
    void setUp() {
        client = Http.client(port);
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> projects(String bearer) {
        Map<String, Object> envelope = json(client.get().uri("/api/v2/account/projects").header(HttpHeaders.AUTHORIZATION, bearer), 200);
        assertThat(meta(envelope)).containsEntry("projectId", null).containsKey("timestamp");
        return (List<Map<String, Object>>) data(envelope).get("projects");
    }

    @Test
    void ownerSeesEveryProjectOfTheAccountWithAllPermissions() {
        Team team = accounts.team(Plan.ENTERPRISE, "agent-picks");
        UUID second = accounts.project(team.accountId(), "Second");
        accounts.pause(second);
        accounts.team(Plan.PLUS); // another account's project must never show

        List<Map<String, Object>> projects = projects(team.ownerBearer());
        assertThat(projects).extracting(p -> p.get("id")).containsExactly(team.projectId().toString(), second.toString());
        assertThat(projects.get(0).keySet()).containsExactlyInAnyOrder("id", "name", "plan", "paused", "features", "permissions");
        assertThat(projects.get(0)).containsEntry("plan", "enterprise").containsEntry("paused", false)
                .containsEntry("features", List.of("agent-picks")).containsEntry("permissions", Permissions.ALL);
        assertThat(projects.get(1)).containsEntry("name", "Second").containsEntry("paused", true)
                .containsEntry("features", List.of()).containsEntry("permissions", Permissions.ALL);
    }

    @Test
    void memberSeesOnlyTheProjectsTheyBelongToWithTheirPermissions() {
        Team team = accounts.team(Plan.PLUS);
        UUID second = accounts.project(team.accountId(), "Second");
        UUID third = accounts.project(team.accountId(), "Third");
        UUID member = accounts.member(team.accountId(), MemberRole.MEMBER);
        accounts.grant(second, member, Permissions.PROJECT_VIEW, Permissions.SETTINGS_MANAGE);
        accounts.grant(third, member);

        List<Map<String, Object>> projects = projects(TestAccounts.memberBearer(team.accountId(), member));
        assertThat(projects).extracting(p -> p.get("id")).containsExactly(second.toString(), third.toString());
        assertThat(projects.get(0)).containsEntry("permissions", List.of(Permissions.PROJECT_VIEW, Permissions.SETTINGS_MANAGE))
                .containsEntry("plan", "plus");
        assertThat(projects.get(1)).containsEntry("permissions", List.of());
    }

    @Test
    void memberOfNoProjectGetsAnEmptyList() {
        Team team = accounts.team(Plan.PLUS);
        UUID member = accounts.member(team.accountId(), MemberRole.MEMBER);
        assertThat(projects(TestAccounts.memberBearer(team.accountId(), member))).isEmpty();
    }

    @Test
    void onlySignedInMembersOfTheAccountMayAsk() {
        Team team = accounts.team(Plan.PLUS);
        String keyBearer = TestAccounts.keyBearer(team.accountId(), team.projectId(), Set.of());
        assertThat(error(client.get().uri("/api/v2/account/projects").header(HttpHeaders.AUTHORIZATION, keyBearer), 403))
                .containsEntry("error", "forbidden");
        error(client.get().uri("/api/v2/account/projects")
                .header(HttpHeaders.AUTHORIZATION, TestAccounts.memberBearer(UUID.randomUUID(), team.ownerId())), 403);
        error(client.get().uri("/api/v2/account/projects").header(HttpHeaders.AUTHORIZATION, TestAccounts.internalBearer()), 403);
        error(client.get().uri("/api/v2/account/projects"), 401);
    }
}
