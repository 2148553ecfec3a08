package dev.visibility.actions.recommendations;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;

import dev.visibility.actions.action.ActionContext;
import dev.visibility.actions.action.Brief;
import dev.visibility.actions.action.FollowUpOf;
import dev.visibility.actions.action.Opportunity;
import dev.visibility.actions.action.Target;
import dev.visibility.actions.write.ActionBodies;
import dev.visibility.platform.consumer.ConsumedRecord;
import dev.visibility.platform.consumer.PoisonRecord;

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
        Brief brief) implements ConsumedRecord {

    public static final String UPSERT = "upsert";
    public static final String WITHDRAW = "withdraw";

    private static final Pattern CHANNEL = Pattern.compile("[a-z0-9][a-z0-9_-]{0,39}");

    public boolean isWithdraw() {
        return WITHDRAW.equals(kind);
    }

    /** The rules of {@code docs/events/recommendations.schema.json}; a record that breaks one is poison. */
    @Override
    public void validate() {
        check(this);
    }

    private static void check(RecommendationCandidate c) {
        if (c == null || c.eventId() == null || !isUuid(c.projectId()) || blank(c.accountId())
                || blank(c.recommendationId()) || c.recommendationId().length() > 200) {
            throw new PoisonRecord("lacks eventId, a UUID projectId, accountId or recommendationId (1-200 characters)");
        }
        if (!RecommendationCandidate.UPSERT.equals(c.kind()) && !RecommendationCandidate.WITHDRAW.equals(c.kind())) {
            throw new PoisonRecord("kind must be upsert or withdraw");
        }
        if (c.isWithdraw()) {
            return;
        }
        if (blank(c.title()) || c.title().length() > 200 || blank(c.description()) || c.description().length() > 5000) {
            throw new PoisonRecord("an upsert needs a title (1-200) and a description (1-5000 characters)");
        }
        if (c.channels() == null || c.channels().isEmpty() || c.channels().size() > 10
                || c.channels().stream().anyMatch(ch -> ch == null || !CHANNEL.matcher(ch).matches())) {
            throw new PoisonRecord("an upsert needs 1 to 10 channel names");
        }
        if (!ActionBodies.PRIORITIES.contains(c.priority())) {
            throw new PoisonRecord("priority must be one of " + ActionBodies.PRIORITIES);
        }
        if (c.opportunity() != null && (blank(c.opportunity().family()) || c.opportunity().components() == null
                || c.opportunity().components().reach() == null || c.opportunity().components().gap() == null
                || c.opportunity().components().confidence() == null)) {
            throw new PoisonRecord("an opportunity needs a family and its reach, gap and confidence components");
        }
        if (c.evidence() != null && c.evidence().topEvidence() != null) {
            for (ActionContext.TopEvidence e : c.evidence().topEvidence()) {
                if (e == null || e.id() == null) {
                    throw new PoisonRecord("every evidence item needs an id");
                }
                if (e.citationLoss() != null && e.citationLoss().cells() != null
                        && e.citationLoss().cells().stream().anyMatch(cell -> cell == null || cell.promptId() == null)) {
                    throw new PoisonRecord("every citation-loss cell needs a promptId");
                }
            }
        }
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }

    private static boolean isUuid(String value) {
        if (value == null || value.length() != 36) {
            return false;
        }
        try {
            return UUID.fromString(value).toString().equalsIgnoreCase(value);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
