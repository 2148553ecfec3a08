package dev.visibility.agents.runs;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import dev.visibility.platform.events.AgentRunRecorded;

/**
 * {@code data} of E8: the managed-agent run of spec 2.9, exactly its fields. {@code draftOutput}
 * is null until the run's review state is completed (spec 3, E8).
 */
public record AgentRunView(UUID id, String status, String workflowKey, String scheduleOccurrenceKey, Instant createdAt,
        Instant startedAt, Instant completedAt, BigDecimal creditsUsed, Map<String, Object> usage,
        Map<String, Object> draftOutput, AgentRunRecorded.Evidence evidenceBlock, AgentRunRecorded.Definition definition) {
}
