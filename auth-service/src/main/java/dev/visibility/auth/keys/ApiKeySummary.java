package dev.visibility.auth.keys;

import java.time.Instant;
import java.util.List;

/** An item of the key list: no key, no hash. {@code revokedAt} is null while the key is active. */
public record ApiKeySummary(String id, String name, String prefix, List<String> scopes, boolean defaultScopes,
        Instant createdAt, Instant revokedAt) {

    static ApiKeySummary of(StoredApiKey key) {
        return new ApiKeySummary(key.id().toString(), key.name(), key.prefix(), ApiKeyScopes.effective(key.scopes()),
                key.scopes() == null, key.createdAt(), key.revokedAt());
    }
}
