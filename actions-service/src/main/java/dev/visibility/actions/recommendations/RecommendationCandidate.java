package dev.visibility.actions.recommendations;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import dev.visibility.actions.action.ActionContext;
import dev.visibility.actions.action.Brief;
import dev.visibility.actions.action.FollowUpOf;
import dev.visibility.actions.action.Opportunity;
import dev.visibility.actions.action.Target;

/**
 * A record of the {@code recommendations} topic (key projectId), published by the recommendation
 * jobs: {@code kind} {@code upsert} creates or updates the suggested action named by
 * {@code recommendationId} (the fingerprint key), {@code withdraw} takes it back. Schema:
 * {@code docs/events/recommendations.schema.json}. A withdraw needs only the first five members.
 * {@code opportunity.percentile}, {@code percentileStatus} and {@code percentilePoolSize} are
 * maintained by actions-service and ignored here.
 */
public record RecommendationCandidate(
        UUID eventId,
        String projectId,
        String accountId,
        String recommendationId,
        String kind,
        Instant occurredAt,
        String title,
        String description,
        List<String> channels,
        String priority,
        String bucket,
        Opportunity opportunity,
        Double effortScore,
        String portfolioCategory,
        String steeredFromPageUrl,
        FollowUpOf followUpOf,
        String expectedImpact,
        String primaryCtaKind,
        Target target,
        String whatChanged,
        String whyNow,
        Boolean isCommandCenter,
        Boolean highStakes,
        String ownerName,
        ActionContext evidence,
        Brief brief) {

    public static final String UPSERT = "upsert";
    public static final String WITHDRAW = "withdraw";

    public boolean isWithdraw() {
        return WITHDRAW.equals(kind);
    }
}
