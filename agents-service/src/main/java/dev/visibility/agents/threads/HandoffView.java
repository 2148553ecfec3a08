package dev.visibility.agents.threads;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

/** An item of E9's {@code data}: the specialist handoff of spec 2.10, exactly its fields. */
public record HandoffView(UUID handoffId, String agent, String agentKey, BigDecimal estimateCredits, Instant expiresAt,
        String instructions) {
}
