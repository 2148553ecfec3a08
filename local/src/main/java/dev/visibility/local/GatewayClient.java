package dev.visibility.local;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The public webhooks API (spec E13, E15) through the gateway, with an API key. Every call has a
 * time-out; every refusal becomes one clear sentence (suite not up, key refused, scope missing).
 */
final class GatewayClient {

    static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final String gatewayUrl;
    private final String apiKey;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    GatewayClient(String gatewayUrl, String apiKey) {
        this.gatewayUrl = gatewayUrl;
        this.apiKey = apiKey;
    }

    /** A subscription just made: its id and its signing secret (spec E13; the secret is returned only here). */
    record Subscription(String id, String secret) {
    }

    Subscription subscribe(String projectId, String url, List<String> events) {
        String body = SuiteLocation.JSON.writeValueAsString(Map.of("url", url, "events", events));
        HttpResponse<String> response = send(HttpRequest.newBuilder(webhooks(projectId))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)), "webhooks.write");
        if (response.statusCode() != 201) {
            throw refusal(response, "webhooks.write");
        }
        JsonNode data = json(response.body()).path("data");
        if (!data.path("id").isString() || !data.path("secret").isString()) {
            throw new CliException(1, "the gateway answered 201 without a webhook id and secret");
        }
        return new Subscription(data.path("id").asString(), data.path("secret").asString());
    }

    void unsubscribe(String projectId, String webhookId) {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(webhooks(projectId) + "/" + webhookId)).DELETE(),
                "webhooks.write");
        if (response.statusCode() != 200) {
            throw refusal(response, "webhooks.write");
        }
    }

    private URI webhooks(String projectId) {
        return URI.create(gatewayUrl + "/api/v2/projects/" + projectId + "/webhooks");
    }

    private HttpResponse<String> send(HttpRequest.Builder request, String scope) {
        try {
            return http.send(request.header("Authorization", "Bearer " + apiKey).header("Accept", "application/json")
                    .timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
        } catch (ConnectException | HttpConnectTimeoutException e) {
            throw new CliException(1, "the suite is not up: the gateway at " + gatewayUrl
                    + " does not answer (./suite up starts it, ./suite status shows what runs)");
        } catch (HttpTimeoutException e) {
            throw new CliException(1, "the gateway at " + gatewayUrl + " did not answer within " + TIMEOUT.toSeconds() + " s");
        } catch (IOException e) {
            throw new CliException(1, "calling the gateway at " + gatewayUrl + " failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(1, "interrupted while calling the gateway");
        }
    }

    private CliException refusal(HttpResponse<String> response, String scope) {
        JsonNode error = json(response.body());
        String message = error.path("message").asString("");
        String reason = error.path("reason").asString("");
        int status = response.statusCode();
        String text = switch (status) {
            case 401 -> "the gateway refused the key (401 unauthorized): credentials.json belongs to another suite, or the key"
                    + " was revoked; ./suite up writes the demo credentials again";
            case 403 -> "missing_scope".equals(reason)
                    ? "the key lacks the scope " + scope + " (403 missing_scope); use a key that has it"
                    : "the gateway refused the request (403" + (reason.isEmpty() ? "" : " " + reason) + "): " + message;
            case 503 -> "webhook-service is not available (503): is it ready? ./suite status";
            default -> "the gateway answered " + status + (message.isEmpty() ? "" : ": " + message);
        };
        return new CliException(1, text);
    }

    private static JsonNode json(String body) {
        try {
            return SuiteLocation.JSON.readTree(body == null || body.isBlank() ? "{}" : body);
        } catch (JacksonException e) {
            return SuiteLocation.JSON.createObjectNode();
        }
    }
}
