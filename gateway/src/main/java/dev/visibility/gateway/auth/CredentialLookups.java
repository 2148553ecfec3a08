package dev.visibility.gateway.auth;

import java.util.Optional;

import reactor.core.publisher.Mono;

/** Where credentials are looked up ({@link AuthServiceClient}: auth-service's internal API). */
public interface CredentialLookups {

    /** What the source says of an API key hash: empty when unknown or revoked. */
    Mono<Optional<AuthServiceClient.KeyLookup>> apiKey(String sha256Hex);

    /** What the source says of a member access token hash: empty when unknown or expired. */
    Mono<Optional<AuthServiceClient.MemberLookup>> memberToken(String sha256Hex);

    /**
     * What the source says of an OAuth connection (an access token's {@code connection_id}) now: empty
     * when revoked or unknown, otherwise its capabilities narrowed to the member's current permissions.
     * A source that cannot tell refuses every connection.
     */
    default Mono<Optional<AuthServiceClient.ConnectionLookup>> oauthConnection(String connectionId) {
        return Mono.just(Optional.empty());
    }
}
