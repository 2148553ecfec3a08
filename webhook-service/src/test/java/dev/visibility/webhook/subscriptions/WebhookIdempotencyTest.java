package dev.visibility.webhook.subscriptions;

import static dev.visibility.platform.testing.Http.data;
import static dev.visibility.platform.testing.Http.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.platform.testing.Http;
import dev.visibility.platform.testing.JsonShapes;
import dev.visibility.webhook.support.WebhookApiTest;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;

/**
 * Issue 22, {@code Idempotency-Key} on the webhook POSTs (E13, E16): a create retried with its key
 * makes one subscription and hands back the same secret (the first answer, replayed); a rotation
 * retried with its key rotates once, so the secret the client kept is the one that signs; the same
 * key with another body is 400 {@code idempotency_key_reused} (spec 7's error shape).
 */
class WebhookIdempotencyTest extends WebhookApiTest {

    private EntityExchangeResult<byte[]> postWithKey(String project, String path, String key, String body) {
        var spec = client.post().uri("/api/v2/projects/" + project + path)
                .header(HttpHeaders.AUTHORIZATION, bearer(project, "webhooks.write")).header("Idempotency-Key", key);
        return (body == null ? spec : spec.contentType(MediaType.APPLICATION_JSON).bodyValue(body))
                .exchange().expectBody().returnResult();
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> webhooks(String project) {
        return (List<Map<String, Object>>) data(json(get(project, "/webhooks"), 200)).get("webhooks");
    }

    @Test
    void aRetriedCreateMakesOneSubscriptionAndAnswersTheSameSecret() {
        String project = newProject();
        String key = "create-" + UUID.randomUUID();
        String body = Http.toJson(Map.of("url", "https://localhost:9/hooks/" + UUID.randomUUID(), "events",
                List.of("action.created")));
        EntityExchangeResult<byte[]> first = postWithKey(project, "/webhooks", key, body);
        EntityExchangeResult<byte[]> retry = postWithKey(project, "/webhooks", key, body);

        assertThat(first.getStatus().value()).isEqualTo(201);
        assertThat(retry.getStatus().value()).isEqualTo(201);
        assertThat(retry.getResponseHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
        assertThat(retry.getResponseBody()).isEqualTo(first.getResponseBody());
        assertThat(webhooks(project)).singleElement()
                .satisfies(w -> assertThat(w.get("id")).isEqualTo(data(Http.parse(first.getResponseBody())).get("id")));

        EntityExchangeResult<byte[]> other = postWithKey(project, "/webhooks", key, Http.toJson(Map.of(
                "url", "https://localhost:9/hooks/other", "events", List.of("action.created"))));
        assertThat(other.getStatus().value()).isEqualTo(400);
        assertThat(JsonShapes.assertError(Http.parse(other.getResponseBody()), 400, "invalid_request"))
                .containsEntry("reason", "idempotency_key_reused");
        assertThat(webhooks(project)).hasSize(1);
    }

    @Test
    void aRetriedRotationRotatesOnce() {
        String project = newProject();
        Map<String, Object> webhook = createWebhook(project, "https://localhost:9/hooks/" + UUID.randomUUID(),
                "action.created");
        String path = "/webhooks/" + webhook.get("id") + "/rotate-secret";
        String key = "rotate-" + UUID.randomUUID();
        EntityExchangeResult<byte[]> first = postWithKey(project, path, key, null);
        EntityExchangeResult<byte[]> retry = postWithKey(project, path, key, null);
        assertThat(first.getStatus().value()).isEqualTo(200);
        assertThat(retry.getResponseHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
        String kept = (String) data(Http.parse(retry.getResponseBody())).get("secret");
        assertThat(kept).isEqualTo(data(Http.parse(first.getResponseBody())).get("secret"))
                .isNotEqualTo(webhook.get("secret"));

        // a rotation without the key is a new rotation: another secret again
        Map<String, Object> rotatedAgain = data(json(post(project, path, (String) null), 200));
        assertThat(rotatedAgain.get("secret")).isNotEqualTo(kept);
    }
}
