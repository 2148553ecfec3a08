package dev.visibility.platform.security;

import java.util.Set;

/**
 * Who a forwarded request acts for, as the gateway established it: the claims of the internal
 * token. {@code keyId} is set for API keys, {@code clientId} for MCP OAuth clients.
 * {@code keyCreatorId} is the member who created the API key (null for other credentials and for
 * keys without a recorded creator): E10 lets only the thread's owner delete it through a key.
 */
public record Caller(String accountId, String projectId, String keyId, String clientId, String userId,
        Set<String> scopes, Set<String> features, String keyCreatorId) {

    public Caller {
        scopes = scopes == null ? Set.of() : Set.copyOf(scopes);
        features = features == null ? Set.of() : Set.copyOf(features);
    }

    /** A caller without a key creator. */
    public Caller(String accountId, String projectId, String keyId, String clientId, String userId, Set<String> scopes,
            Set<String> features) {
        this(accountId, projectId, keyId, clientId, userId, scopes, features, null);
    }

    public boolean hasScope(String scope) {
        return scopes.contains(scope);
    }

    public boolean hasFeature(String feature) {
        return features.contains(feature);
    }
}
