package dev.visibility.outcomes.actions;

import java.time.Instant;
import java.util.UUID;

import dev.visibility.platform.consumer.ConsumedRecord;
import dev.visibility.platform.consumer.PoisonRecord;
import dev.visibility.platform.events.UsageRecorded;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

/**
 * outcomes-service's reading of a {@code public.events} record (the envelope of spec 6.1 plus
 * eventId, {@link dev.visibility.platform.events.PublicEvent}): only the members it needs of the
 * action events ({@code action.created}, {@code action.updated}, {@code action.recommendation.*}),
 * whose {@code data} carries {@code actionId} and {@code action {id, title, status, …}} (spec 6.2).
 * Events of other names pass through unread.
 */
public record ActionEventRecord(
        @NotNull UUID eventId,
        @NotBlank String event,
        @NotNull @Pattern(regexp = UsageRecorded.UUID_PATTERN, message = "must be a UUID") String projectId,
        @NotNull Instant timestamp,
        Data data) implements ConsumedRecord {

    public static final String PREFIX = "action.";

    public record Data(String actionId, Action action) {
    }

    public record Action(String id, String title, String status) {
    }

    public boolean isActionEvent() {
        return event.startsWith(PREFIX);
    }

    /** An action event must name its action; other events are not checked (they are ignored). */
    @Override
    public void validate() {
        if (!isActionEvent()) {
            return;
        }
        if (data == null || data.actionId() == null || data.action() == null) {
            throw new PoisonRecord("an action event needs data.actionId and data.action");
        }
        try {
            UUID.fromString(data.actionId());
        } catch (IllegalArgumentException e) {
            throw new PoisonRecord("data.actionId must be a UUID");
        }
    }

    public UUID actionId() {
        return UUID.fromString(data.actionId());
    }
}
