package dev.visibility.platform.events;

import java.time.Instant;
import java.util.UUID;

/**
 * A record of {@code public.events}: the delivery envelope of spec 6.1 ({@code event, projectId,
 * accountId, timestamp, data}) plus the {@code eventId} every record carries (DESIGN.md, Kafka).
 * The webhook body is the envelope without {@code eventId}.
 */
public record PublicEvent<T>(UUID eventId, String event, String projectId, String accountId, Instant timestamp, T data) {

    public static <T> PublicEvent<T> of(EventName name, String projectId, String accountId, T data) {
        return new PublicEvent<>(UUID.randomUUID(), name.wireName(), projectId, accountId, Instant.now(), data);
    }
}
