package dev.visibility.webhook.subscriptions;

import java.util.List;

/** Body of E13: {@code url} (an https URL) and {@code events} (names of spec 6). */
public record CreateWebhookRequest(String url, List<String> events) {
}
