package dev.visibility.webhook.subscriptions;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** An item of E14 (spec 2.13 without the secret). */
public record WebhookSummary(UUID id, String url, List<String> events, boolean isActive, Instant createdAt) {
}
