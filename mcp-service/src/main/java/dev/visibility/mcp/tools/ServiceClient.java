package dev.visibility.mcp.tools;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.visibility.mcp.server.McpProperties;
import io.netty.channel.ChannelOption;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.util.UriComponentsBuilder;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * Calls a service's own REST endpoint with the caller's internal token (DESIGN.md request path
 * 5), so the service applies its project check and rules exactly as for a REST call. Every call
 * has a connect timeout and an answer timeout; idle connections are dropped after 20 s, before a
 * service's keep-alive timeout can close one under a request (as the gateway's pool does).
 */
public class ServiceClient {

    /** A service's answer: its status and body text. */
    public record Answer(int status, String body) {
    }

    private final WebClient client;
    private final McpProperties.ServiceLocations locations;
    private final Duration timeout;

    public ServiceClient(McpProperties properties, McpProperties.ServiceLocations locations) {
        ConnectionProvider pool = ConnectionProvider.builder("mcp-services")
                .maxConnections(200)
                .maxIdleTime(Duration.ofSeconds(20))
                .evictInBackground(Duration.ofSeconds(20))
                .pendingAcquireTimeout(properties.callTimeout())
                .build();
        HttpClient http = HttpClient.create(pool)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) properties.connectTimeout().toMillis())
                .responseTimeout(properties.callTimeout());
        this.client = WebClient.builder().clientConnector(new ReactorClientHttpConnector(http)).build();
        this.locations = locations;
        this.timeout = properties.callTimeout();
    }

    public Duration timeout() {
        return timeout;
    }

    /**
     * {@code method} on {@code <service>/api/v2/projects/<projectId><path>} with the path variables
     * expanded and encoded, the query parameters given and, if not null, the JSON body (its text).
     */
    public Mono<Answer> call(String service, String method, String projectId, String path, Map<String, Object> pathVariables,
            Map<String, Object> query, String body, String bearer) {
        URI base = locations.uriOf(service);
        UriComponentsBuilder uri = UriComponentsBuilder.fromUri(base).path("/api/v2/projects/{projectId}" + path);
        Map<String, Object> variables = new LinkedHashMap<>(pathVariables);
        variables.put("projectId", projectId);
        query.forEach((name, value) -> {
            uri.queryParam(name, "{q_" + name + "}");
            variables.put("q_" + name, String.valueOf(value));
        });
        URI target = uri.encode().buildAndExpand(variables).toUri();
        WebClient.RequestBodySpec request = client.method(HttpMethod.valueOf(method)).uri(target)
                .header(HttpHeaders.AUTHORIZATION, bearer)
                .accept(MediaType.APPLICATION_JSON);
        WebClient.RequestHeadersSpec<?> ready = body == null ? request
                : request.contentType(MediaType.APPLICATION_JSON).bodyValue(body);
        return ready.exchangeToMono(response -> response.bodyToMono(String.class).defaultIfEmpty("")
                        .map(text -> new Answer(response.statusCode().value(), text)))
                .timeout(timeout);
    }
}
