package dev.visibility.platform.events;

import java.time.Instant;
import java.util.UUID;

import dev.visibility.platform.consumer.ConsumedRecord;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.PositiveOrZero;

/**
 * A record of {@code usage.requests} (keyed by projectId): the gateway's count of requests one
 * API key made in a short interval starting at {@code intervalStart}. auth-service sums them into
 * the project's usage for the current period (spec 5.7). Its constraints are checked by the
 * platform's consumer (Bean Validation) before auth-service sees it.
 */
public record UsageRecorded(
        @NotNull UUID eventId,
        @NotNull @Pattern(regexp = UUID_PATTERN, message = "must be a UUID") String projectId,
        String keyId,
        @NotNull Instant intervalStart,
        @PositiveOrZero long requests) implements ConsumedRecord {

    /** A UUID in its canonical 36-character form, either case. */
    public static final String UUID_PATTERN = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";
}
