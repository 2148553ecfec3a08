package dev.visibility.webhook.subscriptions;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.visibility.platform.error.InvalidParameter;
import dev.visibility.platform.events.EventName;
import dev.visibility.platform.web.RequestBodies;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/**
 * Body of E13, read and validated by the platform's {@code RequestBodies}: {@code url} (at most
 * 2048 characters; whether it is an acceptable destination is {@link SubscriptionValidator}'s
 * concern) and {@code events}, a non-empty list of the names of spec 6 without duplicates.
 */
public record CreateWebhookRequest(
        @NotBlank @Size(max = CreateWebhookRequest.MAX_URL_LENGTH) String url,
        @NotEmpty List<@NotNull String> events) implements RequestBodies.Checked {

    static final int MAX_URL_LENGTH = 2048;

    @Override
    public void check() {
        String allowed = "one or more of " + String.join(", ", EventName.wireNames());
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < events.size(); i++) {
            String event = events.get(i);
            if (EventName.fromWire(event).isEmpty()) {
                throw new InvalidParameter("events", "Field 'events' item " + (i + 1) + " is not an event name: " + allowed);
            }
            if (!seen.add(event)) {
                throw new InvalidParameter("events", "Field 'events' lists '" + event + "' more than once");
            }
        }
    }
}
