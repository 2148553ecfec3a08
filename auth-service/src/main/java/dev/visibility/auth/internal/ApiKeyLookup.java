package dev.visibility.auth.internal;

import java.util.List;

import dev.visibility.auth.keys.ActiveApiKey;

/**
 * Answer of {@code GET /internal/v1/api-keys/{sha256hex}} (no envelope; the gateway is the only
 * caller): everything it needs to authenticate the key, check scopes and features, and refuse
 * keys of paused projects or plans without API access. {@code createdBy} is the member who created
 * the key (null when none is recorded); the gateway forwards it in the internal token (issue 19, E10).
 */
public record ApiKeyLookup(String keyId, String projectId, String accountId, String name, List<String> scopes,
        List<String> features, String plan, boolean apiAccess, boolean paused, String createdBy) {

    static ApiKeyLookup of(ActiveApiKey key) {
        return new ApiKeyLookup(key.keyId().toString(), key.projectId().toString(), key.accountId().toString(),
                key.name(), key.scopes(), key.features(), key.plan().value(), key.plan().apiAccess(), key.paused(),
                key.createdBy() == null ? null : key.createdBy().toString());
    }
}
