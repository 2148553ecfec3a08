package dev.visibility.gateway.auth;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;

import dev.visibility.gateway.routing.RouteTable;
import dev.visibility.gateway.routing.RoutingConfiguration.ServiceLocations;
import dev.visibility.platform.error.Unavailable;
import dev.visibility.platform.security.Caller;
import dev.visibility.platform.security.InternalTokenClaims;
import dev.visibility.platform.security.InternalTokenMinter;
import io.netty.channel.ChannelOption;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.client.PrematureCloseException;
import reactor.netty.resources.ConnectionProvider;
import reactor.util.retry.Retry;

/**
 * Looks credentials up in auth-service ({@code /internal/v1/...}) with the gateway's own internal
 * token. Unknown credentials answer empty; auth-service being down or slow is a 503, never a 401.
 */
@Component
public class AuthServiceClient implements CredentialLookups {

    static final Duration IDLE = Duration.ofSeconds(20);

    private final WebClient client;
    private final InternalTokenMinter minter;
    private final Duration timeout;
    private volatile String gatewayToken;
    private volatile long gatewayTokenMintedAt;

    public AuthServiceClient(ServiceLocations locations, InternalTokenMinter minter, EdgeAuthProperties properties) {
        // idle connections are dropped before a server's keep-alive timeout can close them under a
        // request (Tomcat's is 60 s; the lookups of a quiet gateway are further apart than that)
        ConnectionProvider pool = ConnectionProvider.builder("auth-service")
                .maxConnections(50)
                .maxIdleTime(IDLE)
                .evictInBackground(IDLE)
                .build();
        HttpClient http = HttpClient.create(pool)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(2000, properties.lookupTimeout().toMillis()))
                .responseTimeout(properties.lookupTimeout());
        this.client = WebClient.builder()
                .baseUrl(locations.uriOf(RouteTable.AUTH).toString())
                .clientConnector(new ReactorClientHttpConnector(http))
                .build();
        this.minter = minter;
        this.timeout = properties.lookupTimeout();
    }

    @Override
    public Mono<Optional<KeyLookup>> apiKey(String sha256Hex) {
        return lookup("/internal/v1/api-keys/" + sha256Hex, KeyLookup.class);
    }

    @Override
    public Mono<Optional<MemberLookup>> memberToken(String sha256Hex) {
        return lookup("/internal/v1/member-tokens/" + sha256Hex, MemberLookup.class);
    }

    @Override
    public Mono<Optional<ConnectionLookup>> oauthConnection(String connectionId) {
        return lookup("/internal/v1/oauth-connections/{id}", ConnectionLookup.class, connectionId);
    }

    private <T> Mono<Optional<T>> lookup(String path, Class<T> type, Object... variables) {
        return client.get().uri(path, variables)
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + gatewayToken())
                .exchangeToMono(response -> {
                    if (response.statusCode().is2xxSuccessful()) {
                        return response.bodyToMono(type).map(Optional::of);
                    }
                    if (response.statusCode().value() == HttpStatus.NOT_FOUND.value()) {
                        return response.releaseBody().thenReturn(Optional.<T>empty());
                    }
                    return response.releaseBody().then(Mono.error(
                            new Unavailable("Credentials cannot be checked right now; retry later")));
                })
                // a pooled connection the server closed just as the lookup went out: the GET is safe to repeat
                .retryWhen(Retry.max(1).filter(e -> e instanceof PrematureCloseException))
                .timeout(timeout)
                .onErrorMap(e -> !(e instanceof Unavailable),
                        e -> new Unavailable("Credentials cannot be checked right now; retry later"));
    }

    private String gatewayToken() {
        long now = System.currentTimeMillis();
        String token = gatewayToken;
        if (token == null || now - gatewayTokenMintedAt > 20_000) {
            token = minter.mint(new Caller(null, null, null, "gateway", null, Set.of(InternalTokenClaims.INTERNAL_SCOPE), Set.of()));
            gatewayToken = token;
            gatewayTokenMintedAt = now;
        }
        return token;
    }

    /** {@code GET /internal/v1/api-keys/{hash}} of auth-service; {@code createdBy}: the member who created the key. */
    public record KeyLookup(String keyId, String projectId, String accountId, String name, Set<String> scopes,
            Set<String> features, String plan, boolean apiAccess, boolean paused, String createdBy) {

        /** A key without a recorded creator. */
        public KeyLookup(String keyId, String projectId, String accountId, String name, Set<String> scopes,
                Set<String> features, String plan, boolean apiAccess, boolean paused) {
            this(keyId, projectId, accountId, name, scopes, features, plan, apiAccess, paused, null);
        }
    }

    /** {@code GET /internal/v1/member-tokens/{hash}} of auth-service. */
    public record MemberLookup(String memberId, String accountId) {
    }

    /** {@code GET /internal/v1/oauth-connections/{id}} of auth-service: what the connection may do now. */
    public record ConnectionLookup(String connectionId, String memberId, String accountId, String projectId,
            String clientId, java.util.List<String> capabilities) {
    }
}
