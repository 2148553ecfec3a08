package dev.visibility.platform.security;

import java.util.Set;

/**
 * Who a forwarded request acts for, as the gateway established it: the claims of the internal
 * token. {@code keyId} is set for API keys, {@code clientId} for MCP OAuth clients.
 */
public record Caller(String accountId, String projectId, String keyId, String clientId, String userId,
        Set<String> scopes, Set<String> features) {

    public Caller {
        scopes = scopes == null ? Set.of() : Set.copyOf(scopes);
        features = features == null ? Set.of() : Set.copyOf(features);
    }

    public boolean hasScope(String scope) {
        return scopes.contains(scope);
    }

    public boolean hasFeature(String feature) {
        return features.contains(feature);
    }
}
