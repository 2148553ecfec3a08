package dev.visibility.actions.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.actions.support.ActionsTest;
import dev.visibility.platform.testing.Http;
import dev.visibility.platform.testing.JsonShapes;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;

/**
 * Issue 22: {@code Idempotency-Key} on POST, as Stripe has it. The same key with the same body
 * answers the first answer again (byte for byte, {@code Idempotent-Replayed: true}) and creates
 * nothing; the same key with another body is 400 in the error shape (spec 7); without a key every
 * POST creates. Real service, real PostgreSQL, the platform's filter.
 */
class IdempotencyKeyTest extends ActionsTest {

    private EntityExchangeResult<byte[]> postWithKey(UUID project, String key, String body) {
        return client.post().uri(base(project) + "/actions").header(HttpHeaders.AUTHORIZATION, bearer(project))
                .header("Idempotency-Key", key).contentType(MediaType.APPLICATION_JSON).bodyValue(body)
                .exchange().expectBody().returnResult();
    }

    @Test
    void theSameKeyAndBodyAnswersTheFirstAnswerAndCreatesOneAction() {
        UUID project = UUID.randomUUID();
        String key = "retry-" + UUID.randomUUID();
        String body = "{\"title\":\"Rewrite the pricing page\",\"description\":\"d\",\"channels\":[\"content\"],\"priority\":\"medium\"}";
        EntityExchangeResult<byte[]> first = postWithKey(project, key, body);
        EntityExchangeResult<byte[]> second = postWithKey(project, key, body);

        assertThat(first.getStatus().value()).isEqualTo(201);
        assertThat(first.getResponseHeaders().getFirst("Idempotent-Replayed")).isNull();
        assertThat(second.getStatus().value()).isEqualTo(201);
        assertThat(second.getResponseHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
        assertThat(second.getResponseBody()).isEqualTo(first.getResponseBody());
        assertThat(second.getResponseHeaders().getContentType()).isEqualTo(first.getResponseHeaders().getContentType());
        String id = String.valueOf(data(Http.parse(first.getResponseBody())).get("id"));
        // one action, one action.created
        assertThat(list(data(get(project, "/actions/list?status=suggested&pageSize=50", 200)).get("actions")))
                .extracting(a -> a.get("id")).containsExactly(id);
        assertThat(eventsOf(project, id)).extracting(Published::type).containsExactly("action.created");
    }

    @Test
    void theSameKeyWithAnotherBodyIs400InTheErrorShape() {
        UUID project = UUID.randomUUID();
        String key = "reused-" + UUID.randomUUID();
        assertThat(postWithKey(project, key, "{\"title\":\"First\",\"description\":\"d\",\"channels\":[\"content\"],\"priority\":\"medium\"}").getStatus().value())
                .isEqualTo(201);
        EntityExchangeResult<byte[]> other = postWithKey(project, key, "{\"title\":\"Second\",\"description\":\"d\",\"channels\":[\"content\"],\"priority\":\"medium\"}");
        assertThat(other.getStatus().value()).isEqualTo(400);
        Map<String, Object> error = JsonShapes.assertError(Http.parse(other.getResponseBody()), 400, "invalid_request");
        assertThat(error).containsEntry("reason", "idempotency_key_reused");
        assertThat(list(data(get(project, "/actions/list?status=suggested&pageSize=50", 200)).get("actions")))
                .extracting(a -> a.get("title")).containsExactly("First");
    }

    @Test
    void withoutAKeyEveryPostCreatesAndABadKeyIs400() {
        UUID project = UUID.randomUUID();
        post(project, Map.of("title", "Same", "description", "d", "channels", List.of("content"), "priority", "medium"), 201);
        post(project, Map.of("title", "Same", "description", "d", "channels", List.of("content"), "priority", "medium"), 201);
        assertThat(list(data(get(project, "/actions/list?status=suggested&pageSize=50", 200)).get("actions"))).hasSize(2);
        EntityExchangeResult<byte[]> bad = postWithKey(project, "x".repeat(256), "{\"title\":\"T\",\"description\":\"d\",\"channels\":[\"content\"],\"priority\":\"medium\"}");
        Map<String, Object> error = JsonShapes.assertError(Http.parse(bad.getResponseBody()), 400, "invalid_request");
        assertThat(error).containsEntry("reason", "invalid_idempotency_key");
    }
}
