package dev.visibility.auth.internal;

import static dev.visibility.platform.testing.Http.error;
import static dev.visibility.platform.testing.Http.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import dev.visibility.auth.accounts.MemberRole;
import dev.visibility.auth.accounts.Plan;
import dev.visibility.auth.keys.ApiKeyScopes;
import dev.visibility.auth.keys.ApiKeyService;
import dev.visibility.auth.members.MemberTokens;
import dev.visibility.auth.secrets.Secrets;
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
import org.springframework.transaction.support.TransactionTemplate;

/** The gateway's lookups by SHA-256 (DESIGN.md, request path 1): shape, refusals, and the internal scope. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class InternalLookupTest {

    @LocalServerPort
    int port;
    @Autowired
    TestAccounts accounts;
    @Autowired
    ApiKeyService keys;
    @Autowired
    MemberTokens memberTokens;
    @Autowired
    TransactionTemplate tx;

    private WebTestClient client;

    @BeforeEach
    void setUp() {
        client = Http.client(port);
    }

    private String newKey(UUID projectId, List<String> narrowedScopes) {
        return tx.execute(status -> keys.create(projectId, "gateway test", narrowedScopes, null)).key().key();
    }

    private WebTestClient.RequestHeadersSpec<?> apiKey(String hash) {
        return client.get().uri("/internal/v1/api-keys/" + hash).header(HttpHeaders.AUTHORIZATION, TestAccounts.internalBearer());
    }

    private WebTestClient.RequestHeadersSpec<?> memberToken(String hash) {
        return client.get().uri("/internal/v1/member-tokens/" + hash).header(HttpHeaders.AUTHORIZATION, TestAccounts.internalBearer());
    }

    @Test
    void apiKeyLookupAnswersEverythingTheGatewayNeeds() {
        Team team = accounts.team(Plan.PRO, "agent-picks");
        String key = newKey(team.projectId(), null);
        Map<String, Object> body = json(apiKey(Secrets.sha256Hex(key)), 200);
        assertThat(body.keySet()).containsExactlyInAnyOrder("keyId", "projectId", "accountId", "name", "scopes", "features",
                "plan", "apiAccess", "paused", "createdBy");
        assertThat(UUID.fromString((String) body.get("keyId"))).isNotNull();
        assertThat(body).containsEntry("projectId", team.projectId().toString())
                .containsEntry("accountId", team.accountId().toString())
                .containsEntry("name", "gateway test")
                .containsEntry("scopes", ApiKeyScopes.DEFAULTS)
                .containsEntry("features", List.of("agent-picks"))
                .containsEntry("plan", "pro")
                .containsEntry("apiAccess", true)
                .containsEntry("paused", false)
                .containsEntry("createdBy", null);
    }

    /** Issue 19: the member who created the key reaches the gateway, which forwards it to agents-service (E10 ownership). */
    @Test
    void apiKeyLookupNamesTheMemberWhoCreatedTheKey() {
        Team team = accounts.team(Plan.PLUS);
        String key = tx.execute(status -> keys.create(team.projectId(), "created by the owner", null, team.ownerId()))
                .key().key();
        assertThat(json(apiKey(Secrets.sha256Hex(key)), 200)).containsEntry("createdBy", team.ownerId().toString());
    }

    @Test
    void pausedProjectAndPlanWithoutApiAccessAreReportedForTheGatewayToRefuse() {
        Team team = accounts.team(Plan.FREE);
        String key = newKey(team.projectId(), List.of("visibility.read"));
        accounts.pause(team.projectId());
        assertThat(json(apiKey(Secrets.sha256Hex(key)), 200)).containsEntry("plan", "free").containsEntry("apiAccess", false)
                .containsEntry("paused", true).containsEntry("features", List.of()).containsEntry("scopes", List.of("visibility.read"));
    }

    @Test
    void unknownHashIs404() {
        assertThat(error(apiKey(Secrets.sha256Hex("svc_live_" + Secrets.randomHex())), 404)).containsEntry("error", "not_found");
    }

    @Test
    void anythingButSixtyFourLowercaseHexIs400() {
        String hash = Secrets.sha256Hex("svc_live_" + Secrets.randomHex());
        String key = "svc_live_" + Secrets.randomHex();
        for (String bad : List.of(hash.toUpperCase(Locale.ROOT), hash.substring(1), hash + "0", "g" + hash.substring(1), key)) {
            assertThat((String) error(apiKey(bad), 400).get("message")).as(bad).contains("keyHash");
            assertThat((String) error(memberToken(bad), 400).get("message")).as(bad).contains("tokenHash");
        }
    }

    @Test
    void internalEndpointsNeedTheInternalScope() {
        Team team = accounts.team(Plan.PLUS);
        String hash = Secrets.sha256Hex(newKey(team.projectId(), null));
        String keyBearer = TestAccounts.keyBearer(team.accountId(), team.projectId(), Set.copyOf(ApiKeyScopes.ALL));
        assertThat(error(client.get().uri("/internal/v1/api-keys/" + hash).header(HttpHeaders.AUTHORIZATION, keyBearer), 403))
                .containsEntry("error", "forbidden");
        error(client.get().uri("/internal/v1/member-tokens/" + hash).header(HttpHeaders.AUTHORIZATION, team.ownerBearer()), 403);
        error(client.get().uri("/internal/v1/api-keys/" + hash), 401);
    }

    @Test
    void memberTokenLookupAnswersMemberAndAccount() {
        Team team = accounts.team(Plan.PLUS);
        UUID member = accounts.member(team.accountId(), MemberRole.MEMBER);
        String token = memberTokens.issue(member, Instant.now().plus(Duration.ofHours(1)));
        assertThat(token).matches("^mat_[0-9a-f]{64}$");
        Map<String, Object> body = json(memberToken(Secrets.sha256Hex(token)), 200);
        assertThat(body).containsOnly(Map.entry("memberId", member.toString()), Map.entry("accountId", team.accountId().toString()));
    }

    @Test
    void expiredOrUnknownMemberTokenIs404() {
        Team team = accounts.team(Plan.PLUS);
        String expired = memberTokens.issue(team.ownerId(), Instant.now().minusSeconds(1));
        assertThat(error(memberToken(Secrets.sha256Hex(expired)), 404)).containsEntry("error", "not_found");
        error(memberToken(Secrets.sha256Hex("mat_" + Secrets.randomHex())), 404);
    }
}
