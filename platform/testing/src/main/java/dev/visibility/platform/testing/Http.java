package dev.visibility.platform.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one HTTP helper of the tests. A service's tests call its real server through a
 * {@link WebTestClient} ({@link #client}, {@link #json}, {@link #error}); the system tests call
 * processes through the public origin as a customer would ({@link #call}, answering an
 * {@link Answer}). Both check bodies with {@link JsonShapes}.
 *
 * <p>Every call has a generous time-out: on a loaded machine of two shared cores an answer can take
 * several seconds (WebTestClient's default of 5 s failed healthy tests there); a real hang still fails.
 */
public final class Http {

    /** How long a test waits for one answer. */
    public static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(30);

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private Http() {
    }

    // --- a service's own tests: WebTestClient against the real server -----------------------

    /** A client of the server on {@code port} of this machine (answers up to 16 MiB). */
    public static WebTestClient client(int port) {
        return WebTestClient.bindToServer().baseUrl("http://localhost:" + port).responseTimeout(ANSWER_TIMEOUT)
                .codecs(codecs -> codecs.defaultCodecs().maxInMemorySize(16 * 1024 * 1024)).build();
    }

    /** Sends the request, asserts the status and a JSON content type, and answers the parsed object. */
    public static Map<String, Object> json(WebTestClient.RequestHeadersSpec<?> request, int status) {
        byte[] raw = request.exchange().expectStatus().isEqualTo(status)
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_JSON)
                .expectBody().returnResult().getResponseBody();
        return parse(raw);
    }

    /** Sends the request and asserts the error shape of spec 7 with {@code status}; answers the body. */
    public static Map<String, Object> error(WebTestClient.RequestHeadersSpec<?> request, int status) {
        return JsonShapes.assertError(json(request, status), status);
    }

    // --- system tests: processes called over HTTP --------------------------------------------

    /**
     * One call to {@code baseUrl + path}: with {@code Authorization: Bearer <bearer>} when a bearer is
     * given, {@code body} as JSON (a String goes as it is, anything else is serialized).
     */
    public static Answer call(String baseUrl, String method, String path, String bearer, Object body, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(ANSWER_TIMEOUT);
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        headers.forEach(request::header);
        if (body != null) {
            request.header("Content-Type", "application/json");
            request.method(method, HttpRequest.BodyPublishers.ofString(body instanceof String s ? s : toJson(body)));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        try {
            HttpResponse<String> response = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.headers(), response.body());
        } catch (IOException e) {
            throw new IllegalStateException(method + " " + path + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static Answer get(String baseUrl, String path, String bearer) {
        return call(baseUrl, "GET", path, bearer, null, Map.of());
    }

    /** An answer of a process: its status, headers and body as text. */
    public record Answer(int status, HttpHeaders headers, String body) {

        public Map<String, Object> json() {
            return parse(body);
        }

        /** The {@code data} member of the body. */
        public Map<String, Object> data() {
            return map(json().get("data"));
        }

        public String header(String name) {
            return headers.firstValue(name).orElse(null);
        }

        /** Asserts the status (the body is shown when it differs) and answers this answer. */
        public Answer assertStatus(int expected) {
            assertThat(status).as("HTTP status; body: %s", body).isEqualTo(expected);
            return this;
        }
    }

    // --- bodies ---------------------------------------------------------------------------------

    @SuppressWarnings("unchecked")
    public static Map<String, Object> parse(String json) {
        return JSON.readValue(json, Map.class);
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> parse(byte[] json) {
        return JSON.readValue(json, Map.class);
    }

    public static String toJson(Object value) {
        return JSON.writeValueAsString(value);
    }

    /** The {@code data} of a spec 2.1 envelope, which must be exactly {@code {data, meta}}. */
    public static Map<String, Object> data(Map<String, Object> envelope) {
        JsonShapes.assertFields(envelope, "data", "meta");
        return map(envelope.get("data"));
    }

    /** The {@code meta} of a response body. */
    public static Map<String, Object> meta(Map<String, Object> envelope) {
        return map(envelope.get("meta"));
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    public static List<Map<String, Object>> list(Object value) {
        return (List<Map<String, Object>>) value;
    }
}
