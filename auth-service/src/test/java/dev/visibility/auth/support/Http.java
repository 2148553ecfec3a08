package dev.visibility.auth.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.json.JsonMapper;

/** Answers parsed as JSON, and the error shape of spec 7 checked on every non-2xx. */
public final class Http {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private Http() {
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> json(WebTestClient.RequestHeadersSpec<?> request, int status) {
        byte[] raw = request.exchange().expectStatus().isEqualTo(status)
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_JSON)
                .expectBody().returnResult().getResponseBody();
        return JSON.readValue(raw, Map.class);
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> data(Map<String, Object> envelope) {
        assertThat(envelope.keySet()).containsExactlyInAnyOrder("data", "meta");
        return (Map<String, Object>) envelope.get("data");
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> meta(Map<String, Object> envelope) {
        return (Map<String, Object>) envelope.get("meta");
    }

    /** Asserts the error shape {error, message, status[, reason]} without internals; answers the body. */
    public static Map<String, Object> error(WebTestClient.RequestHeadersSpec<?> request, int status) {
        Map<String, Object> body = json(request, status);
        assertThat(body.keySet()).contains("error", "message", "status").isSubsetOf("error", "message", "status", "reason");
        assertThat(body.get("status")).isEqualTo(status);
        for (String internal : List.of("Exception", "java.", "org.springframework", "dev.visibility", "SELECT", "tools.jackson")) {
            assertThat(body.toString()).doesNotContain(internal);
        }
        return body;
    }

    public static String toJson(Object value) {
        return JSON.writeValueAsString(value);
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> parse(String json) {
        return JSON.readValue(json, Map.class);
    }
}
