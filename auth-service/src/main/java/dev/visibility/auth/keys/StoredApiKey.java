package dev.visibility.auth.keys;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** A row of {@code api_keys}; {@code scopes} is null for "all default scopes". */
record StoredApiKey(UUID id, UUID projectId, String name, String prefix, List<String> scopes, Instant createdAt,
        Instant revokedAt) {
}
