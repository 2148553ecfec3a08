package dev.visibility.auth.keys;

import java.time.Instant;

/** {@code data} of a revocation: when the key stopped working (the first revocation's time, on repeats). */
public record ApiKeyRevoked(String id, Instant revokedAt) {
}
