package dev.visibility.auth.dashboard;

import java.io.IOException;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.visibility.platform.error.ApiException;
import dev.visibility.platform.error.ErrorCode;
import dev.visibility.platform.error.Unavailable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;
import org.springframework.web.util.UriUtils;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;

/**
 * The public webhook API (spec E13–E16 and the delivery log, webhook-service README) as the
 * dashboard calls it: through the gateway at {@code suite.dashboard.api-url}, with the session's
 * narrowed key ({@link SessionApiKeys}). Connect time-out 2 s, answer time-out 10 s. An error
 * answer becomes an {@link ApiException} with the API's status, message and reason, shown on the
 * page as the API said it; an unreachable gateway is 503.
 */
@Component
class WebhookApi {

    private static final Logger LOG = LoggerFactory.getLogger(WebhookApi.class);

    private final RestClient http;
    private final String apiUrl;
    private final boolean configured;
    private final ObjectMapper mapper;

    WebhookApi(@Value("${suite.dashboard.api-url:}") String apiUrl, ObjectMapper mapper) {
        this.configured = !apiUrl.isBlank();
        this.apiUrl = apiUrl.replaceAll("/+$", "");
        this.mapper = mapper;
        JdkClientHttpRequestFactory requests = new JdkClientHttpRequestFactory(
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build());
        requests.setReadTimeout(Duration.ofSeconds(10));
        this.http = RestClient.builder().requestFactory(requests).build();
    }

    /** 503 when no API address is configured: checked before a session key is made for nothing. */
    void requireConfigured() {
        if (!configured) {
            throw new Unavailable("Webhooks cannot be managed here: the dashboard has no API address (suite.dashboard.api-url)");
        }
    }

    /** E14: the project's active subscriptions. */
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> list(String key, String projectId) {
        Map<String, Object> data = data(call(key, HttpMethod.GET, path(projectId, "/webhooks"), null));
        return (List<Map<String, Object>>) data.getOrDefault("webhooks", List.of());
    }

    /** E13: the created subscription, its secret included (shown once). */
    Map<String, Object> create(String key, String projectId, String url, List<String> events) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("url", url);
        body.put("events", events);
        return data(call(key, HttpMethod.POST, path(projectId, "/webhooks"), body));
    }

    /** E16: the new secret. */
    String rotate(String key, String projectId, String webhookId) {
        return (String) data(call(key, HttpMethod.POST, path(projectId, "/webhooks/" + segment(webhookId) + "/rotate-secret"),
                null)).get("secret");
    }

    /** E15. */
    void delete(String key, String projectId, String webhookId) {
        call(key, HttpMethod.DELETE, path(projectId, "/webhooks/" + segment(webhookId)), null);
    }

    /** The delivery log's first page (newest first, every attempt) and its pagination. */
    Map<String, Object> deliveries(String key, String projectId, String webhookId, String cursor) {
        String query = "?pageSize=25" + (cursor == null || cursor.isBlank() ? "" : "&cursor=" + UriUtils.encodeQueryParam(cursor,
                java.nio.charset.StandardCharsets.UTF_8));
        return data(call(key, HttpMethod.GET, path(projectId, "/webhooks/" + segment(webhookId) + "/deliveries") + query, null));
    }

    /** A new delivery of the same event (202). */
    Map<String, Object> redeliver(String key, String projectId, String webhookId, String deliveryId) {
        return data(call(key, HttpMethod.POST, path(projectId, "/webhooks/" + segment(webhookId) + "/deliveries/"
                + segment(deliveryId) + "/redeliver"), null));
    }

    private static String path(String projectId, String rest) {
        return "/api/v2/projects/" + segment(projectId) + rest;
    }

    private static String segment(String value) {
        return UriUtils.encodePathSegment(value, java.nio.charset.StandardCharsets.UTF_8);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> data(Map<String, Object> answer) {
        Object data = answer.get("data");
        return data instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
    }

    private Map<String, Object> call(String key, HttpMethod method, String uri, Object body) {
        requireConfigured();
        try {
            // the path is encoded already: a URI is sent as it is, never expanded or encoded again
            RestClient.RequestBodySpec request = http.method(method).uri(java.net.URI.create(apiUrl + uri))
                    .header(HttpHeaders.AUTHORIZATION, "Bearer " + key)
                    .accept(MediaType.APPLICATION_JSON);
            if (body != null) {
                request.contentType(MediaType.APPLICATION_JSON).body(mapper.writeValueAsString(body));
            }
            return request.exchange((req, response) -> {
                int status = response.getStatusCode().value();
                byte[] bytes = response.getBody().readAllBytes();
                Map<String, Object> parsed = parse(bytes);
                if (status >= 400) {
                    throw failure(status, parsed);
                }
                return parsed;
            });
        } catch (ApiException e) {
            throw e;
        } catch (RestClientException | IllegalArgumentException e) {
            LOG.warn("The dashboard could not reach the webhook API: {}", e.toString());
            throw new Unavailable("The webhook API could not be reached; try again in a moment");
        }
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> parse(byte[] bytes) throws IOException {
        if (bytes.length == 0) {
            return Map.of();
        }
        try {
            Object value = mapper.readValue(bytes, Object.class);
            return value instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
        } catch (JacksonException e) {
            return Map.of();
        }
    }

    private static ApiException failure(int status, Map<String, Object> body) {
        String message = body.get("message") instanceof String text ? text : "The webhook API answered " + status;
        String reason = body.get("reason") instanceof String text ? text : null;
        return new ApiException(ErrorCode.forStatus(status), status, message, reason, Map.of());
    }
}
