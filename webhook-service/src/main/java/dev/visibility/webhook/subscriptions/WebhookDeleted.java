package dev.visibility.webhook.subscriptions;

/** The whole answer of E15, without envelope: {@code {deleted: true}}. */
public record WebhookDeleted(boolean deleted) {
}
