package dev.visibility.webhook.subscriptions;

import java.util.List;

/** {@code data} of E14: the project's active webhooks, oldest first. */
public record WebhookList(List<WebhookSummary> webhooks) {
}
