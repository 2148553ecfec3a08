package dev.visibility.actions.brief;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.visibility.actions.action.Brief;

/**
 * {@code data} of {@code GET …/actions/{actionId}/brief} (spec E17; its shape is ours): the brief
 * with its readiness. {@code brief} is null when the action has none yet.
 */
public record ActionBriefView(UUID actionId, String title, String status, Readiness readiness, Content brief) {

    /** status: ready, stale (written for facts that have since changed materially) or missing. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Readiness(boolean hasBrief, String status, Instant generatedAt, Instant updatedAt,
            boolean canGenerateBrief, boolean requiresHighStakesAcknowledgement) {
    }

    public record Content(String summary, List<Brief.Step> steps) {
    }
}
