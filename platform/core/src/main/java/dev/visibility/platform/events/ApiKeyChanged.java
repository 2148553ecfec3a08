package dev.visibility.platform.events;

import java.time.Instant;
import java.util.Set;
import java.util.UUID;

/**
 * A record of {@code auth.keys} (compacted, keyed by key hash): a key was created, changed or
 * revoked. Gateways and mcp replicas evict their caches on receipt.
 */
public record ApiKeyChanged(UUID eventId, Change change, String keyHash, String keyId, String projectId,
        Set<String> scopes, Instant occurredAt) {

    public enum Change { CREATED, CHANGED, REVOKED }
}
