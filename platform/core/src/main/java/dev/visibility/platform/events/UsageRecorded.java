package dev.visibility.platform.events;

import java.time.Instant;
import java.util.UUID;

/**
 * A record of {@code usage.requests} (keyed by projectId): the gateway's count of requests one
 * API key made in a short interval starting at {@code intervalStart}. auth-service sums them into
 * the project's usage for the current period (spec 5.7).
 */
public record UsageRecorded(UUID eventId, String projectId, String keyId, Instant intervalStart, long requests) {
}
