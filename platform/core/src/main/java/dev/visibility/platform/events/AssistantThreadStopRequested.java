package dev.visibility.platform.events;

import java.time.Instant;
import java.util.UUID;

/**
 * A record of {@code agents.thread-stops} (key projectId; schema
 * {@code docs/events/agents.thread-stops.schema.json}), published by agents-service through its
 * outbox exactly once per deleted thread (E10): the agent runner stops the thread's live work
 * (running specialist work, pending handoffs) on receipt. Consumers de-duplicate by eventId.
 *
 * @param reason      why the work stops; {@code thread_deleted} is the one value today
 * @param requestedBy the member who deleted the thread (the API key's creator, or the signed-in member)
 * @param keyId       the API key the delete came through; null for other credentials
 */
public record AssistantThreadStopRequested(UUID eventId, UUID projectId, String accountId, UUID threadId, String reason,
        String requestedBy, String keyId, Instant requestedAt) {

    public static final String EVENT_TYPE = "agents.thread-stop";
    public static final String THREAD_DELETED = "thread_deleted";
}
