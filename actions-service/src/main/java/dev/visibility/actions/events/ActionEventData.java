package dev.visibility.actions.events;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.visibility.actions.action.BriefReadiness;
import dev.visibility.actions.action.Opportunity;
import dev.visibility.actions.action.Target;

/**
 * {@code data} of the four action events (spec 6.2): the shared base, plus
 * {@code recommendationContext} on the two recommendation events. Schemas:
 * {@code docs/events/action.*.schema.json}.
 */
public record ActionEventData(
        String event,
        String actionId,
        String origin,
        Actor actor,
        List<String> changedFields,
        EventAction action,
        Links links,
        @JsonInclude(JsonInclude.Include.NON_NULL) RecommendationContext recommendationContext) {

    /** {@code userId} only when the actor is a user known by id. */
    public record Actor(String type, @JsonInclude(JsonInclude.Include.NON_NULL) String userId) {
    }

    public record EventAction(String id, String title, String description, String status, String surface,
            String priority, List<String> channels, Target target, String expectedImpact, String whatChanged,
            Instant updatedAt, Integer portfolioRank) {
    }

    /** {@code mcpActionBrief} is present on created events only. */
    public record Links(String apiActionContext, McpCall mcpActionContext,
            @JsonInclude(JsonInclude.Include.NON_NULL) McpCall mcpActionBrief) {
    }

    public record McpCall(String tool, Map<String, String> args) {
    }

    /**
     * {@code review} on created events only; {@code opportunity} only for a live recommendation
     * ranked on the opportunity contract (never for adopted actions).
     */
    public record RecommendationContext(String bucket, String whyNow, List<EvidenceRef> topEvidence,
            BriefReadiness briefReadiness, List<String> changeReasons,
            @JsonInclude(JsonInclude.Include.NON_NULL) Review review,
            @JsonInclude(JsonInclude.Include.NON_NULL) EventOpportunity opportunity) {
    }

    public record EvidenceRef(UUID id, String title, String summary, String type) {
    }

    public record Review(String classification, String fingerprintKey) {
    }

    /**
     * The same opportunity facts as the actions list; {@code measurements} only for
     * citation-defence recommendations (published window date, citation counts, probe-day coverage).
     */
    public record EventOpportunity(double percentile,
            @JsonInclude(JsonInclude.Include.NON_NULL) Integer percentilePoolSize,
            Opportunity.Components components, boolean estimated, String family, List<String> measuredFacts,
            @JsonInclude(JsonInclude.Include.NON_NULL) EventMeasurements measurements) {
    }

    public record EventMeasurements(LocalDate asOfDate, int currentCitationCount, int priorCitationCount,
            int currentProbeDays, int priorProbeDays) {
    }
}
