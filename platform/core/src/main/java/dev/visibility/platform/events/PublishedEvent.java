package dev.visibility.platform.events;

import java.time.Instant;
import java.util.UUID;

import dev.visibility.platform.consumer.ConsumedRecord;
import dev.visibility.platform.consumer.PoisonRecord;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import tools.jackson.databind.JsonNode;

/**
 * A record of {@code public.events} as its consumers read it ({@link PublicEvent} is how producers
 * write it): the envelope of spec 6.1 with the eventId, {@code data} kept as a JSON tree (its
 * decimal numbers keep their digits). The topic's schema ({@code docs/events/public.events.schema.json})
 * has already checked {@code data} against the event's own schema when a consumer sees it.
 */
public record PublishedEvent(
        @NotNull UUID eventId,
        @NotBlank String event,
        @NotNull UUID projectId,
        @NotBlank String accountId,
        @NotNull Instant timestamp,
        @NotNull JsonNode data) implements ConsumedRecord {

    @Override
    public void validate() {
        if (EventName.fromWire(event).isEmpty()) {
            throw new PoisonRecord("event is not an event name of spec 6");
        }
        if (!data.isObject()) {
            throw new PoisonRecord("data is not an object");
        }
    }

    public EventName name() {
        return EventName.fromWire(event).orElseThrow();
    }
}
