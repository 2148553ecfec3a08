package dev.visibility.auth.keys;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;

import dev.visibility.auth.accounts.Plan;
import dev.visibility.auth.support.TestAccounts;
import dev.visibility.auth.support.TestAccounts.Team;
import dev.visibility.platform.testing.Http;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Issue 22, {@code Idempotency-Key} on auth-service's public POST (the account API's key
 * creation, spec 5.2), with the rules of the WebFlux services: a retry with the same key and body
 * replays the first answer (the same key, shown once, is not made twice), another body is 400
 * {@code idempotency_key_reused}, a malformed key 400 {@code invalid_idempotency_key}; keys are
 * per caller. Real PostgreSQL; the stored answer is encrypted.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class IdempotencyKeyTest {

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
        team = accounts.team(Plan.PLUS);
    }

    private EntityExchangeResult<byte[]> create(String bearer, String idemKey, String body) {
        return client.post().uri("/api/v2/account/projects/" + team.projectId() + "/api-keys")
                .header(HttpHeaders.AUTHORIZATION, bearer).header("Idempotency-Key", idemKey)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(body)
                .exchange().expectBody().returnResult();
    }

    private long keysNamed(String name) {
        return db.sql("SELECT count(*) FROM api_keys WHERE project_id = :p AND name = :n")
                .param("p", team.projectId()).param("n", name).query(Long.class).single();
    }

    @Test
    void aRetryWithTheSameKeyAndBodyReplaysTheFirstAnswerAndCreatesNothing() {
        String idemKey = "retry-" + UUID.randomUUID();
        String body = "{\"name\": \"CI retry\"}";
        EntityExchangeResult<byte[]> first = create(team.ownerBearer(), idemKey, body);
        assertThat(first.getStatus().value()).isEqualTo(201);
        assertThat(first.getResponseHeaders().getFirst("Idempotent-Replayed")).isNull();

        EntityExchangeResult<byte[]> again = create(team.ownerBearer(), idemKey, body);
        assertThat(again.getStatus().value()).isEqualTo(201);
        assertThat(again.getResponseHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
        assertThat(again.getResponseHeaders().getContentType()).isEqualTo(first.getResponseHeaders().getContentType());
        assertThat(again.getResponseBody()).isEqualTo(first.getResponseBody());
        assertThat(keysNamed("CI retry")).isEqualTo(1);

        // the stored answer carries a key shown once: it rests encrypted, never in the clear
        String key = (String) ((Map<?, ?>) Http.parse(new String(first.getResponseBody(), StandardCharsets.UTF_8))
                .get("data")).get("key");
        byte[] stored = db.sql("SELECT body FROM idempotency_keys WHERE idem_key = :k").param("k", idemKey)
                .query(byte[].class).single();
        assertThat(new String(stored, StandardCharsets.ISO_8859_1)).doesNotContain(key);
    }

    @Test
    void theSameKeyWithAnotherBodyIs400AndAMalformedKeyIs400() {
        String idemKey = "reuse-" + UUID.randomUUID();
        assertThat(create(team.ownerBearer(), idemKey, "{\"name\": \"first\"}").getStatus().value()).isEqualTo(201);
        EntityExchangeResult<byte[]> reused = create(team.ownerBearer(), idemKey, "{\"name\": \"second\"}");
        assertThat(reused.getStatus().value()).isEqualTo(400);
        Map<String, Object> error = Http.parse(new String(reused.getResponseBody(), StandardCharsets.UTF_8));
        assertThat(error).containsEntry("error", "invalid_request").containsEntry("reason", "idempotency_key_reused")
                .containsEntry("status", 400);
        assertThat(keysNamed("second")).isZero();

        EntityExchangeResult<byte[]> malformed = create(team.ownerBearer(), "has space", "{\"name\": \"bad key\"}");
        assertThat(malformed.getStatus().value()).isEqualTo(400);
        assertThat(Http.parse(new String(malformed.getResponseBody(), StandardCharsets.UTF_8)))
                .containsEntry("reason", "invalid_idempotency_key");
        assertThat(keysNamed("bad key")).isZero();
    }

    @Test
    void keysArePerCallerAndARefusedFirstAnswerIsReplayedToo() {
        String idemKey = "shared-" + UUID.randomUUID();
        UUID otherOwner = accounts.member(team.accountId(), dev.visibility.auth.accounts.MemberRole.OWNER);
        accounts.grant(team.projectId(), otherOwner, dev.visibility.auth.accounts.Permissions.ALL.toArray(String[]::new));
        assertThat(create(team.ownerBearer(), idemKey, "{\"name\": \"per caller\"}").getStatus().value()).isEqualTo(201);
        // another member's request with the same key string is a request of its own
        EntityExchangeResult<byte[]> other = create(TestAccounts.memberBearer(team.accountId(), otherOwner), idemKey,
                "{\"name\": \"per caller\"}");
        assertThat(other.getStatus().value()).isEqualTo(201);
        assertThat(other.getResponseHeaders().getFirst("Idempotent-Replayed")).isNull();
        assertThat(keysNamed("per caller")).isEqualTo(2);

        // a 4xx is an answer too: the retry gets the same 400, not a second run
        String badKey = "bad-" + UUID.randomUUID();
        EntityExchangeResult<byte[]> refused = create(team.ownerBearer(), badKey, "{\"name\": \"\"}");
        assertThat(refused.getStatus().value()).isEqualTo(400);
        EntityExchangeResult<byte[]> replayed = create(team.ownerBearer(), badKey, "{\"name\": \"\"}");
        assertThat(replayed.getStatus().value()).isEqualTo(400);
        assertThat(replayed.getResponseHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
        assertThat(replayed.getResponseBody()).isEqualTo(refused.getResponseBody());
    }
}
