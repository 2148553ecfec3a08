package dev.visibility.agents.support;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.platform.events.AgentRunRecorded;
import dev.visibility.platform.events.AssistantThreadRecorded;

/** Records of agents.runs and agents.threads as the agent runner and the assistant publish them. */
public final class Records {

    public static final Instant CREATED = Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(Duration.ofHours(2));

    private Records() {
    }

    public static AgentRunRecorded.Evidence blocked() {
        return new AgentRunRecorded.Evidence("blocked", List.of(new AgentRunRecorded.Unavailable("analytics", "missing")));
    }

    public static AgentRunRecorded.Definition definition() {
        return new AgentRunRecorded.Definition("content-refresh", "Refreshes pages that lost citations", "Content refresh",
                "content_refresh", "page_draft", false, blocked(), List.of("open_draft", "request_changes"));
    }

    public static AgentRunRecorded run(UUID projectId, UUID runId, long revision, String status, String reviewState,
            Map<String, Object> draft) {
        boolean started = !"queued".equals(status);
        boolean finished = "completed".equals(status) || "failed".equals(status) || "cancelled".equals(status);
        return new AgentRunRecorded(UUID.randomUUID(), projectId, runId, revision, status, reviewState, "content_refresh",
                "weekly:2026-W47", CREATED, started ? CREATED.plusSeconds(5) : null, finished ? CREATED.plusSeconds(300) : null,
                new BigDecimal("12.5"), Map.of("inputTokens", 18250, "outputTokens", 4120, "toolCalls", 7), draft, blocked(),
                definition());
    }

    public static AssistantThreadRecorded created(UUID projectId, UUID threadId, UUID owner) {
        return new AssistantThreadRecorded(UUID.randomUUID(), projectId, threadId, AssistantThreadRecorded.THREAD_CREATED,
                CREATED, owner, "Why did citations drop?", null, null, null);
    }

    public static AssistantThreadRecorded offered(UUID projectId, UUID threadId, UUID handoffId, Instant expiresAt) {
        return new AssistantThreadRecorded(UUID.randomUUID(), projectId, threadId, AssistantThreadRecorded.HANDOFF_OFFERED,
                CREATED.plusSeconds(60), null, null, new AssistantThreadRecorded.Handoff(handoffId, "Technical SEO specialist",
                        "technical-seo", new BigDecimal("40"), expiresAt, "Audit the pricing pages for crawl blocks"),
                null, null);
    }

    public static AssistantThreadRecorded handoff(UUID projectId, UUID threadId, String kind, UUID handoffId) {
        return new AssistantThreadRecorded(UUID.randomUUID(), projectId, threadId, kind, CREATED.plusSeconds(120), null, null,
                null, handoffId, null);
    }

    public static AssistantThreadRecorded credits(UUID projectId, UUID threadId, String credits) {
        return new AssistantThreadRecorded(UUID.randomUUID(), projectId, threadId, AssistantThreadRecorded.CREDITS_USED,
                CREATED.plusSeconds(30), null, null, null, null, new BigDecimal(credits));
    }
}
