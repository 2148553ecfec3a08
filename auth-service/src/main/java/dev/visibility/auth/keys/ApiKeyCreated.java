package dev.visibility.auth.keys;

import java.time.Instant;
import java.util.List;

/**
 * {@code data} of the 201 answer to a key creation: the only place the full {@code key} ever
 * appears (spec 5.2). {@code scopes} is the effective list; {@code defaultScopes} tells whether
 * the key keeps "all default scopes" rather than a narrowed set.
 */
public record ApiKeyCreated(String id, String name, String prefix, List<String> scopes, boolean defaultScopes,
        Instant createdAt, String key) {

    /** Never print the key, should this record ever reach a log line. */
    @Override
    public String toString() {
        return "ApiKeyCreated[id=" + id + ", prefix=" + prefix + "]";
    }
}
