package dev.visibility.webhook.subscriptions;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** {@code data} of E13: the subscription with its signing secret, which appears only here and on rotation. */
public record WebhookCreated(UUID id, String url, List<String> events, boolean isActive, String secret, Instant createdAt) {
}
