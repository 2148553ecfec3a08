package dev.visibility.actions.action;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * An action as the API shows it (spec 2.4, item of E3 and the body of the write answers). Legacy
 * scalar scores are never part of it. {@code context} is present only at the context detail level.
 */
public record ActionView(
        UUID id,
        String title,
        String description,
        List<String> channels,
        String priority,
        String status,
        boolean blocked,
        UUID assignedTo,
        String ownerName,
        Opportunity opportunity,
        Double effortScore,
        String portfolioCategory,
        Integer portfolioRank,
        String steeredFromPageUrl,
        FollowUpOf followUpOf,
        Instant createdAt,
        Instant updatedAt,
        String expectedImpact,
        String primaryCtaKind,
        String targetLabel,
        String whatChanged,
        String whyNow,
        @JsonProperty("isCommandCenter") boolean isCommandCenter,
        @JsonInclude(JsonInclude.Include.NON_NULL) Context context) {

    /**
     * The context detail (spec 2.4 and E3): top evidence with audit, citation loss and Google
     * eligibility, winning pages, plus brief readiness and links to the actions that follow this one up.
     */
    public record Context(List<ActionContext.TopEvidence> topEvidence, List<ActionContext.WinningPage> winningPages,
            BriefReadiness briefReadiness, List<FollowUpLink> followUps) {
    }

    /** An action created as a follow-up of this one. */
    public record FollowUpLink(UUID actionId, String title, String status) {
    }
}
