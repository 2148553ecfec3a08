package dev.visibility.webhook.subscriptions;

/** {@code data} of E16: the new signing secret. */
public record SecretRotated(String secret) {
}
