package dev.visibility.auth.keys;

import static dev.visibility.platform.testing.Http.data;
import static dev.visibility.platform.testing.Http.error;
import static dev.visibility.platform.testing.Http.json;
import static dev.visibility.platform.testing.Http.meta;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import dev.visibility.auth.accounts.MemberRole;
import dev.visibility.auth.accounts.Permissions;
import dev.visibility.auth.accounts.Plan;
import dev.visibility.auth.secrets.Secrets;
import dev.visibility.platform.testing.Http;
import dev.visibility.platform.testing.TestKafka;
import dev.visibility.auth.support.TestAccounts;
import dev.visibility.auth.support.TestAccounts.Team;
import dev.visibility.platform.events.Topics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.reactive.server.WebTestClient;

/** The account API's key routes (DESIGN.md, Account API; spec 5.1 to 5.6) against real PostgreSQL and TestKafka. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ApiKeysApiTest {

    private static final String KEY_FORMAT = "^svc_live_[0-9a-f]{64}$";

    @LocalServerPort
    int port;
    @Autowired
    TestAccounts accounts;
    @Autowired
    JdbcClient db;

    private WebTestClient client;
    private Team team;

    @BeforeEach
    void setUp() {
        client = Http.client(port);
        team = accounts.team(Plan.PLUS, "agent-picks");
    }

    private static String keys(UUID projectId) {
        return "/api/v2/account/projects/" + projectId + "/api-keys";
    }

    private WebTestClient.RequestHeadersSpec<?> post(UUID projectId, String bearer, String body) {
        return client.post().uri(keys(projectId)).header(HttpHeaders.AUTHORIZATION, bearer)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(body);
    }

    private Map<String, Object> create(String body) {
        Map<String, Object> envelope = json(post(team.projectId(), team.ownerBearer(), body), 201);
        assertThat(meta(envelope)).containsEntry("projectId", team.projectId().toString());
        return data(envelope);
    }

    private Map<String, Object> lookup(String key, int status) {
        return json(client.get().uri("/internal/v1/api-keys/" + Secrets.sha256Hex(key))
                .header(HttpHeaders.AUTHORIZATION, TestAccounts.internalBearer()), status);
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> list(Team team) {
        Map<String, Object> envelope = json(client.get().uri(keys(team.projectId()))
                .header(HttpHeaders.AUTHORIZATION, team.ownerBearer()), 200);
        assertThat(meta(envelope)).containsEntry("projectId", team.projectId().toString());
        return (List<Map<String, Object>>) data(envelope).get("apiKeys");
    }

    private WebTestClient.RequestHeadersSpec<?> delete(UUID projectId, Object keyId, String bearer) {
        return client.delete().uri(keys(projectId) + "/" + keyId).header(HttpHeaders.AUTHORIZATION, bearer);
    }

    @Test
    void createdKeyHasTheFormatAndIsShownOnlyInTheCreationAnswer() {
        Map<String, Object> created = create("{\"name\": \"  CI pipeline  \"}");
        String key = (String) created.get("key");
        assertThat(key).matches(KEY_FORMAT);
        assertThat(created.keySet()).containsExactlyInAnyOrder("id", "name", "prefix", "scopes", "defaultScopes", "createdAt", "key");
        assertThat(created).containsEntry("name", "CI pipeline").containsEntry("prefix", key.substring(0, 12));
        assertThat(UUID.fromString((String) created.get("id"))).isNotNull();
        assertThat(Instant.parse((String) created.get("createdAt"))).isBetween(Instant.now().minusSeconds(60), Instant.now().plusSeconds(60));

        Map<String, Object> listed = list(team).get(0);
        assertThat(listed.keySet()).containsExactlyInAnyOrder("id", "name", "prefix", "scopes", "defaultScopes", "createdAt", "revokedAt");
        assertThat(listed.toString()).doesNotContain(key.substring(12)).doesNotContain(Secrets.sha256Hex(key));
    }

    private static String arrayText(java.sql.Array array) {
        try {
            return List.of((Object[]) array.getArray()).toString();
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void databaseHoldsOnlyTheHashAndVisiblePrefixOfTheKey() {
        Map<String, Object> created = create("{\"name\": \"hashed\"}");
        String key = (String) created.get("key");
        String secretPart = key.substring("svc_live_".length());
        List<Map<String, Object>> rows = db.sql("SELECT * FROM api_keys WHERE id = :id")
                .param("id", UUID.fromString((String) created.get("id")))
                .query().listOfRows();
        assertThat(rows).hasSize(1);
        Map<String, Object> row = rows.get(0);
        assertThat(row).containsEntry("key_hash", Secrets.sha256Hex(key)).containsEntry("prefix", key.substring(0, 12));
        for (Map.Entry<String, Object> column : row.entrySet()) {
            String value = column.getValue() instanceof java.sql.Array array ? arrayText(array) : String.valueOf(column.getValue());
            assertThat(value).as(column.getKey()).doesNotContain(secretPart.substring(3)).doesNotContain(key);
        }
        List<String> payloads = db.sql("SELECT payload FROM outbox WHERE payload LIKE :id")
                .param("id", "%" + created.get("id") + "%")
                .query(String.class).list();
        assertThat(payloads).isNotEmpty().allSatisfy(payload -> assertThat(payload).doesNotContain(secretPart.substring(3)));
    }

    @Test
    @SuppressWarnings("unchecked")
    void keyWithoutScopesKeepsAllDefaultScopesWhichExcludeTheExplicitGrants() {
        Map<String, Object> created = create("{\"name\": \"defaults\"}");
        assertThat(created).containsEntry("defaultScopes", true).containsEntry("scopes", ApiKeyScopes.DEFAULTS);
        assertThat((List<Object>) created.get("scopes")).doesNotContain("library.read", "library.write", "agents.read", "agents.run");
        assertThat(lookup((String) created.get("key"), 200)).containsEntry("scopes", ApiKeyScopes.DEFAULTS);
        assertThat(create("{\"name\": \"null scopes\", \"scopes\": null}")).containsEntry("defaultScopes", true);
    }

    @Test
    void narrowedKeyKeepsExactlyItsScopes() {
        Map<String, Object> created = create("{\"name\": \"narrow\", \"scopes\": [\"agents.run\", \"visibility.read\", \"agents.run\"]}");
        assertThat(created).containsEntry("defaultScopes", false).containsEntry("scopes", List.of("visibility.read", "agents.run"));
        assertThat(lookup((String) created.get("key"), 200)).containsEntry("scopes", List.of("visibility.read", "agents.run"));
        assertThat(list(team).get(0)).containsEntry("scopes", List.of("visibility.read", "agents.run"))
                .containsEntry("defaultScopes", false);
    }

    @Test
    void emptyScopeSetIsAllowedAndStaysEmpty() {
        // such a key can still read its project's usage (spec 5.7)
        Map<String, Object> created = create("{\"name\": \"usage only\", \"scopes\": []}");
        assertThat(created).containsEntry("defaultScopes", false).containsEntry("scopes", List.of());
        assertThat(lookup((String) created.get("key"), 200)).containsEntry("scopes", List.of());
    }

    @Test
    void unknownScopesAre400NamingEachOfThem() {
        Map<String, Object> body = error(post(team.projectId(), team.ownerBearer(),
                "{\"name\": \"x\", \"scopes\": [\"visibility.read\", \"bogus.read\", \"admin\"]}"), 400);
        assertThat(body).containsEntry("error", "invalid_request");
        assertThat((String) body.get("message")).contains("'scopes'", "bogus.read", "admin");
        assertThat(list(team)).isEmpty();
    }

    @Test
    void everyMalformedBodyIs400InTheErrorShape() {
        Map<String, String> cases = Map.ofEntries(
                Map.entry("{}", "'name'"),
                Map.entry("{\"name\": null}", "'name'"),
                Map.entry("{\"name\": \"   \"}", "'name'"),
                Map.entry("{\"name\": \"" + "n".repeat(101) + "\"}", "'name'"),
                Map.entry("{\"name\": \"tab\\tinside\"}", "'name'"),
                Map.entry("{\"name\": [\"x\"]}", "'name'"),
                Map.entry("{\"name\": \"ok\", \"scopes\": \"visibility.read\"}", "'scopes'"),
                Map.entry("{\"name\": \"ok\", \"scopes\": {\"a\": 1}}", "'scopes'"),
                Map.entry("{\"name\": \"ok\", \"scopes\": [null]}", "'scopes'"),
                // a nested array: the wrong JSON type, named (RequestBodies)
                Map.entry("{\"name\": \"ok\", \"scopes\": [[\"visibility.read\"]]}", "'scopes'"),
                Map.entry("{\"name\": \"ok\", \"scope\": []}", "'scope' is not known"),
                Map.entry("[]", ""),
                Map.entry("null", ""),
                Map.entry("\"name\"", ""),
                Map.entry("{\"name\": ", ""));
        cases.forEach((body, named) -> {
            Map<String, Object> answer = error(post(team.projectId(), team.ownerBearer(), body), 400);
            assertThat(answer).as(body).containsEntry("error", "invalid_request");
            assertThat((String) answer.get("message")).as(body).contains(named);
        });
        error(client.post().uri(keys(team.projectId())).header(HttpHeaders.AUTHORIZATION, team.ownerBearer())
                .contentType(MediaType.APPLICATION_JSON), 400);
        assertThat(list(team)).isEmpty();
    }

    @Test
    void nameOfExactly100CharactersIsAccepted() {
        assertThat(create("{\"name\": \"" + "é".repeat(100) + "\"}")).containsEntry("name", "é".repeat(100));
    }

    @Test
    void memberWithoutSettingsManageCannotCreateOrRevokeButCanList() {
        String key = (String) create("{\"name\": \"existing\"}").get("id");
        UUID viewer = accounts.member(team.accountId(), MemberRole.MEMBER);
        accounts.grant(team.projectId(), viewer, Permissions.PROJECT_VIEW);
        String bearer = TestAccounts.memberBearer(team.accountId(), viewer);

        assertThat(error(post(team.projectId(), bearer, "{\"name\": \"mine\"}"), 403)).containsEntry("error", "forbidden")
                .doesNotContainKey("reason");
        assertThat(error(delete(team.projectId(), key, bearer), 403)).containsEntry("error", "forbidden");
        client.get().uri(keys(team.projectId())).header(HttpHeaders.AUTHORIZATION, bearer).exchange().expectStatus().isOk();
        assertThat(list(team)).hasSize(1).allSatisfy(k -> assertThat(k.get("revokedAt")).isNull());
    }

    @Test
    void memberWithSettingsManageCanCreateAndRevoke() {
        UUID manager = accounts.member(team.accountId(), MemberRole.MEMBER);
        accounts.grant(team.projectId(), manager, Permissions.PROJECT_VIEW, Permissions.SETTINGS_MANAGE);
        String bearer = TestAccounts.memberBearer(team.accountId(), manager);
        Map<String, Object> created = data(json(post(team.projectId(), bearer, "{\"name\": \"by manager\"}"), 201));
        json(delete(team.projectId(), created.get("id"), bearer), 200);
    }

    @Test
    void memberNotOnTheProjectIsForbidden() {
        UUID outsider = accounts.member(team.accountId(), MemberRole.MEMBER);
        String bearer = TestAccounts.memberBearer(team.accountId(), outsider);
        error(post(team.projectId(), bearer, "{\"name\": \"x\"}"), 403);
        error(client.get().uri(keys(team.projectId())).header(HttpHeaders.AUTHORIZATION, bearer), 403);
    }

    @Test
    void planWithoutApiAccessIs403WithItsReason() {
        Team free = accounts.team(Plan.FREE);
        Map<String, Object> body = error(post(free.projectId(), free.ownerBearer(), "{\"name\": \"x\"}"), 403);
        assertThat(body).containsEntry("error", "forbidden").containsEntry("reason", "plan_without_api_access");
    }

    @Test
    void projectOfAnotherAccountIs404ForEveryRoute() {
        Team other = accounts.team(Plan.PLUS);
        String otherKey = (String) data(json(post(other.projectId(), other.ownerBearer(), "{\"name\": \"theirs\"}"), 201)).get("id");

        assertThat(error(post(other.projectId(), team.ownerBearer(), "{\"name\": \"x\"}"), 404)).containsEntry("error", "not_found");
        error(client.get().uri(keys(other.projectId())).header(HttpHeaders.AUTHORIZATION, team.ownerBearer()), 404);
        error(delete(other.projectId(), otherKey, team.ownerBearer()), 404);
        error(post(UUID.randomUUID(), team.ownerBearer(), "{\"name\": \"x\"}"), 404);
        assertThat(list(other)).singleElement().satisfies(k -> assertThat(k.get("revokedAt")).isNull());
    }

    @Test
    void anotherProjectsKeyCannotBeRevokedThroughThisProject() {
        UUID second = accounts.project(team.accountId(), "second");
        String keyOfSecond = (String) data(json(post(second, team.ownerBearer(), "{\"name\": \"k\"}"), 201)).get("id");
        error(delete(team.projectId(), keyOfSecond, team.ownerBearer()), 404);
        error(delete(team.projectId(), UUID.randomUUID(), team.ownerBearer()), 404);
    }

    @Test
    void malformedIdsAre400NamingTheParameter() {
        assertThat((String) error(client.get().uri("/api/v2/account/projects/not-a-uuid/api-keys")
                .header(HttpHeaders.AUTHORIZATION, team.ownerBearer()), 400).get("message")).contains("projectId");
        assertThat((String) error(delete(team.projectId(), "not-a-uuid", team.ownerBearer()), 400).get("message")).contains("keyId");
        assertThat((String) error(delete(team.projectId(), "00000000-0000-0000-0000-00000000000g", team.ownerBearer()), 400).get("message"))
                .contains("keyId");
    }

    @Test
    void apiKeyCallersCannotUseTheAccountApi() {
        String keyBearer = TestAccounts.keyBearer(team.accountId(), team.projectId(), Set.copyOf(ApiKeyScopes.ALL));
        error(post(team.projectId(), keyBearer, "{\"name\": \"x\"}"), 403);
        error(client.get().uri("/api/v2/account/projects").header(HttpHeaders.AUTHORIZATION, keyBearer), 403);
        String strangerBearer = TestAccounts.memberBearer(team.accountId(), UUID.randomUUID());
        error(post(team.projectId(), strangerBearer, "{\"name\": \"x\"}"), 403);
        String otherAccountsMember = TestAccounts.memberBearer(UUID.randomUUID(), team.ownerId());
        error(post(team.projectId(), otherAccountsMember, "{\"name\": \"x\"}"), 403);
        error(client.post().uri(keys(team.projectId())).contentType(MediaType.APPLICATION_JSON).bodyValue("{\"name\": \"x\"}"), 401);
    }

    @Test
    void listIsNewestFirstAndShowsRevocations() {
        String first = (String) create("{\"name\": \"first\"}").get("id");
        String second = (String) create("{\"name\": \"second\", \"scopes\": [\"traffic.read\"]}").get("id");
        Map<String, Object> revoked = data(json(delete(team.projectId(), first, team.ownerBearer()), 200));

        List<Map<String, Object>> listed = list(team);
        assertThat(listed).extracting(k -> k.get("id")).containsExactly(second, first);
        assertThat(listed.get(0)).containsEntry("revokedAt", null).containsEntry("scopes", List.of("traffic.read"));
        assertThat(listed.get(1)).containsEntry("revokedAt", revoked.get("revokedAt")).containsEntry("defaultScopes", true);
    }

    @Test
    void revocationIsImmediatePermanentAndIdempotent() {
        Map<String, Object> created = create("{\"name\": \"to revoke\"}");
        String key = (String) created.get("key");
        lookup(key, 200);

        Map<String, Object> envelope = json(delete(team.projectId(), created.get("id"), team.ownerBearer()), 200);
        assertThat(meta(envelope)).containsEntry("projectId", team.projectId().toString());
        Map<String, Object> revoked = data(envelope);
        assertThat(revoked.keySet()).containsExactlyInAnyOrder("id", "revokedAt");
        assertThat(revoked).containsEntry("id", created.get("id"));
        assertThat(error(client.get().uri("/internal/v1/api-keys/" + Secrets.sha256Hex(key))
                .header(HttpHeaders.AUTHORIZATION, TestAccounts.internalBearer()), 404)).containsEntry("error", "not_found");

        Map<String, Object> again = data(json(delete(team.projectId(), created.get("id"), team.ownerBearer()), 200));
        assertThat(again).isEqualTo(revoked);
        lookup(key, 404);
    }

    @Test
    void creationAndRevocationPublishApiKeyChangedKeyedByTheHash() {
        Map<String, Object> created = create("{\"name\": \"evicted\", \"scopes\": [\"actions.read\"]}");
        String hash = Secrets.sha256Hex((String) created.get("key"));
        Map<String, Object> revoked = data(json(delete(team.projectId(), created.get("id"), team.ownerBearer()), 200));

        List<ConsumerRecord<String, String>> records = TestKafka.awaitRecords(Topics.AUTH_KEYS,
                record -> hash.equals(record.key()), 2, Duration.ofSeconds(30));
        assertThat(records).hasSize(2);
        List<Map<String, Object>> events = new ArrayList<>();
        records.forEach(record -> events.add(Http.parse(record.value())));
        assertThat(events).extracting(e -> e.get("change")).containsExactly("CREATED", "REVOKED");
        Map<String, Object> revocation = events.get(1);
        assertThat(revocation.keySet()).containsExactlyInAnyOrder("eventId", "change", "keyHash", "keyId", "projectId", "scopes", "occurredAt");
        assertThat(revocation).containsEntry("keyHash", hash).containsEntry("keyId", created.get("id"))
                .containsEntry("projectId", team.projectId().toString()).containsEntry("scopes", List.of("actions.read"));
        assertThat(Instant.parse((String) revocation.get("occurredAt"))).isEqualTo(Instant.parse((String) revoked.get("revokedAt")));
        assertThat(new String(records.get(1).headers().lastHeader(Topics.EVENT_ID_HEADER).value(), StandardCharsets.UTF_8))
                .isEqualTo(revocation.get("eventId"));
        assertThat(records.get(0).value()).doesNotContain(((String) created.get("key")).substring(12));
    }

    @Test
    void theRevocationEventContinuesTheTraceOfTheRequestThatCausedIt() {
        Map<String, Object> created = create("{\"name\": \"traced\"}");
        String hash = Secrets.sha256Hex((String) created.get("key"));
        String traceId = UUID.randomUUID().toString().replace("-", "");
        json(client.delete().uri(keys(team.projectId()) + "/" + created.get("id"))
                .header(HttpHeaders.AUTHORIZATION, team.ownerBearer())
                .header("traceparent", "00-" + traceId + "-00f067aa0ba902b7-01"), 200);

        ConsumerRecord<String, String> revocation = TestKafka.awaitRecords(Topics.AUTH_KEYS,
                record -> hash.equals(record.key()) && record.value().contains("REVOKED"), 1, Duration.ofSeconds(30)).get(0);
        // issue 23: the outbox row kept the request's trace, and the relay's record carries it on
        assertThat(revocation.headers().lastHeader("traceparent")).isNotNull();
        assertThat(new String(revocation.headers().lastHeader("traceparent").value(), StandardCharsets.UTF_8))
                .startsWith("00-" + traceId + "-");
    }
}
