package dev.visibility.gateway.openapi;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

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
 * paths come back soon). Only the first request waits for a build: once a document is kept, an
 * expired one is answered at once while one build in the background replaces it. Concurrent
 * requests share one build. {@link #warmUp} builds it before anyone asks (a service builds its own
 * document on its first request: about 4 s of a just-started suite's). Never fails: a service that
 * does not answer, answers an error or answers something that is not JSON is listed in
 * {@code x-unavailable}.
 */
public class OpenApiDocument {

    static final String SERVICE_DOCUMENT_PATH = "/v3/api-docs";

    private record Built(ObjectNode document, boolean complete, Instant expiresAt) {
    }

    private final ServiceLocations locations;
    private final OpenApiMerger merger;
    private final JsonMapper mapper;
    private final OpenApiProperties properties;
    private final Clock clock;
    private final WebClient client;
    /** The document last built (null before the first build). */
    private final AtomicReference<Built> kept = new AtomicReference<>();
    /** The build under way, shared by whoever asks meanwhile (null when none is). */
    private final AtomicReference<Mono<Built>> building = new AtomicReference<>();

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
    }

    /**
     * The merged document (shared; callers must not change it): the one kept, at once, and a
     * rebuild started in the background when it has expired; before the first build, that build's.
     */
    public Mono<ObjectNode> document() {
        return Mono.defer(() -> {
            Built current = kept.get();
            if (current == null) {
                return rebuild().map(Built::document);
            }
            if (!clock.instant().isBefore(current.expiresAt())) {
                rebuild().subscribe(built -> { }, e -> { });
            }
            return Mono.just(current.document());
        });
    }

    /**
     * Builds the document without a caller waiting, and again every {@code incomplete-ttl} while a
     * service does not answer, at most {@code attempts} builds; the answer completes when a build
     * was complete or the attempts are spent.
     */
    public Mono<Void> warmUp(int attempts) {
        if (attempts <= 0) {
            return Mono.empty();
        }
        return Mono.defer(this::rebuild)
                .map(Built::complete)
                .onErrorReturn(false)
                .flatMap(complete -> complete || attempts == 1 ? Mono.<Void>empty()
                        : Mono.delay(properties.incompleteTtl()).then(warmUp(attempts - 1)));
    }

    /** The build under way, or a new one that replaces the document kept when it ends. */
    private Mono<Built> rebuild() {
        while (true) {
            Mono<Built> running = building.get();
            if (running != null) {
                return running;
            }
            Mono<Built> next = Mono.defer(this::build)
                    .doOnNext(kept::set)
                    .doFinally(signal -> building.set(null))
                    .cache();
            if (building.compareAndSet(null, next)) {
                return next;
            }
        }
    }

    private Mono<Built> build() {
        return Flux.fromIterable(RouteTable.SERVICES)
                .flatMapSequential(this::fetch)
                .collectList()
                .map(documents -> {
                    ObjectNode merged = merger.merge(documents);
                    boolean complete = !merged.has("x-unavailable");
                    return new Built(merged, complete,
                            clock.instant().plus(complete ? properties.cacheTtl() : properties.incompleteTtl()));
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
