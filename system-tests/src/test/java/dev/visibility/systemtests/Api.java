package dev.visibility.systemtests;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

/** A plain HTTP client for calling the public origin as a customer would. */
public final class Api {

    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private Api() {
    }

    public static Response call(String baseUrl, String method, String path, String bearer, Object body, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(15));
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        headers.forEach(request::header);
        if (body != null) {
            request.header("Content-Type", "application/json");
            request.method(method, HttpRequest.BodyPublishers.ofString(body instanceof String s ? s : JSON.writeValueAsString(body)));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        try {
            HttpResponse<String> response = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), response.headers(), response.body());
        } catch (IOException e) {
            throw new IllegalStateException(method + " " + path + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static Response get(String baseUrl, String path, String bearer) {
        return call(baseUrl, "GET", path, bearer, null, Map.of());
    }

    public record Response(int status, java.net.http.HttpHeaders headers, String body) {

        @SuppressWarnings("unchecked")
        public Map<String, Object> json() {
            return JSON.readValue(body, Map.class);
        }

        @SuppressWarnings("unchecked")
        public Map<String, Object> data() {
            return (Map<String, Object>) json().get("data");
        }

        public String header(String name) {
            return headers.firstValue(name).orElse(null);
        }
    }
}
