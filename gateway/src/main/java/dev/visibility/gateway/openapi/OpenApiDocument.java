package dev.visibility.gateway.openapi;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

import dev.visibility.gateway.openapi.OpenApiMerger.ServiceDocument;
import dev.visibility.gateway.routing.RouteTable;
import dev.visibility.gateway.routing.RoutingConfiguration.ServiceLocations;
import io.netty.channel.ChannelOption;
import org.springframework.http.MediaType;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Fetches every service's OpenAPI document ({@code GET /v3/api-docs}, open on the services without
 * the internal token) with a timeout, merges them ({@link OpenApiMerger}) and keeps the result for
 * {@code suite.openapi.cache-ttl} ({@code incomplete-ttl} when a service did not answer, so its
 * paths come back soon). Concurrent requests share one build. Never fails: a service that does not
 * answer, answers an error or answers something that is not JSON is listed in {@code x-unavailable}.
 */
public class OpenApiDocument {

    static final String SERVICE_DOCUMENT_PATH = "/v3/api-docs";

    private record Built(ObjectNode document, Instant expiresAt) {
    }

    private final ServiceLocations locations;
    private final OpenApiMerger merger;
    private final JsonMapper mapper;
    private final OpenApiProperties properties;
    private final Clock clock;
    private final WebClient client;
    private final Mono<Built> cached;

    public OpenApiDocument(ServiceLocations locations, OpenApiMerger merger, JsonMapper mapper,
            OpenApiProperties properties, Clock clock) {
        this.locations = locations;
        this.merger = merger;
        this.mapper = mapper;
        this.properties = properties;
        this.clock = clock;
        HttpClient http = HttpClient.create()
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(2000, properties.fetchTimeout().toMillis()))
                .responseTimeout(properties.fetchTimeout());
        this.client = WebClient.builder()
                .clientConnector(new ReactorClientHttpConnector(http))
                .codecs(codecs -> codecs.defaultCodecs().maxInMemorySize(8 * 1024 * 1024))
                .build();
        this.cached = Mono.defer(this::build).cacheInvalidateIf(built -> !clock.instant().isBefore(built.expiresAt()));
    }

    /** The merged document (shared; callers must not change it). */
    public Mono<ObjectNode> document() {
        return cached.map(Built::document);
    }

    private Mono<Built> build() {
        return Flux.fromIterable(RouteTable.SERVICES)
                .flatMapSequential(this::fetch)
                .collectList()
                .map(documents -> {
                    ObjectNode merged = merger.merge(documents);
                    boolean complete = !merged.has("x-unavailable");
                    return new Built(merged, clock.instant().plus(complete ? properties.cacheTtl() : properties.incompleteTtl()));
                });
    }

    private Mono<ServiceDocument> fetch(String service) {
        String uri = locations.uriOf(service).toString().replaceAll("/+$", "") + SERVICE_DOCUMENT_PATH;
        return client.get().uri(uri).accept(MediaType.APPLICATION_JSON)
                .retrieve()
                .bodyToMono(byte[].class)
                .map(body -> new ServiceDocument(service, parse(body)))
                .timeout(properties.fetchTimeout().plusMillis(500))
                .onErrorResume(e -> Mono.just(new ServiceDocument(service, null)))
                .defaultIfEmpty(new ServiceDocument(service, null));
    }

    private JsonNode parse(byte[] body) {
        try {
            JsonNode node = mapper.readTree(body);
            return node != null && node.isObject() && node.has("paths") ? node : null;
        } catch (RuntimeException e) {
            return null;
        }
    }
}
