package dev.visibility.webhook.delivery;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * States of a delivery in the log (names of our own; the README documents them): {@code pending}
 * while attempts remain, {@code succeeded} after a 2xx, {@code failed} after the last of the 4
 * attempts failed, {@code cancelled} when the webhook was deleted before the delivery succeeded.
 */
public enum DeliveryState {
    PENDING, SUCCEEDED, FAILED, CANCELLED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static List<String> wireNames() {
        return Arrays.stream(values()).map(DeliveryState::wireName).toList();
    }
}
