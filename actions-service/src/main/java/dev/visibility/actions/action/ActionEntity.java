package dev.visibility.actions.action;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * One row of {@code actions}, as the write paths change it. Never returned by a handler: responses
 * and events are built from it by {@link ActionViews} and the event factory. Fields are public
 * because this is a plain data holder used only inside this service.
 */
public final class ActionEntity {

    public UUID id;
    public UUID projectId;
    public String accountId;
    public String origin;
    public String fingerprintKey;
    public String title;
    public String description;
    public List<String> channels = new ArrayList<>();
    public String priority;
    public String status;
    public boolean blocked;
    public UUID assignedTo;
    public String ownerName;
    /** The contract as the producer sent it; percentile, status and pool size live in their own fields. */
    public Opportunity opportunity;
    public String family;
    public String percentileStatus;
    public Double percentile;
    public Integer percentilePoolSize;
    public Double score;
    public Double effortScore;
    public String portfolioCategory;
    public Integer portfolioRank;
    public String steeredFromPageUrl;
    public FollowUpOf followUpOf;
    public Instant createdAt;
    public Instant updatedAt;
    public Instant shippedAt;
    public String expectedImpact;
    public String primaryCtaKind;
    public String targetLabel;
    public String targetType;
    public java.util.Map<String, Object> targetPayload;
    public String whatChanged;
    public String whyNow;
    public boolean commandCenter;
    public ActionContext context;
    public String bucket;
    public String suggestionStatus;
    public boolean hidden;
    public boolean actedOn;
    public boolean highStakes;
    public Brief brief;
    public String briefBasisHash;
    public MaterialFacts material;
    public String materialHash;
    public int promptCount;
    public List<String> userFields = new ArrayList<>();

    public static final String ORIGIN_USER = "user";
    public static final String ORIGIN_SYSTEM = "system";

    public static final String SUGGESTION_OPEN = "open";
    public static final String SUGGESTION_ADOPTED = "adopted";
    public static final String SUGGESTION_DISMISSED = "dismissed";
    public static final String SUGGESTION_WITHDRAWN = "withdrawn";

    public ActionStatus statusEnum() {
        return ActionStatus.fromWire(status);
    }

    public boolean isRecommendation() {
        return fingerprintKey != null;
    }

    /** The opportunity as the API shows it: the stored contract with the maintained ranking fields. */
    public Opportunity opportunityView() {
        if (opportunity == null) {
            return null;
        }
        return opportunity.withRanking(percentileStatus, percentile, percentilePoolSize);
    }

    public Target target() {
        return new Target(targetLabel, targetType, targetPayload == null ? java.util.Map.of() : targetPayload);
    }

    /** ready (a brief for the current material facts), stale (one for older facts) or missing. */
    public String briefStatus() {
        if (brief == null) {
            return "missing";
        }
        return briefBasisHash != null && briefBasisHash.equals(materialHash) ? "ready" : "stale";
    }

    public ActionEntity copy() {
        ActionEntity c = new ActionEntity();
        c.id = id; c.projectId = projectId; c.accountId = accountId; c.origin = origin; c.fingerprintKey = fingerprintKey;
        c.title = title; c.description = description; c.channels = new ArrayList<>(channels); c.priority = priority;
        c.status = status; c.blocked = blocked; c.assignedTo = assignedTo; c.ownerName = ownerName;
        c.opportunity = opportunity; c.family = family; c.percentileStatus = percentileStatus; c.percentile = percentile;
        c.percentilePoolSize = percentilePoolSize; c.score = score; c.effortScore = effortScore;
        c.portfolioCategory = portfolioCategory; c.portfolioRank = portfolioRank; c.steeredFromPageUrl = steeredFromPageUrl;
        c.followUpOf = followUpOf; c.createdAt = createdAt; c.updatedAt = updatedAt; c.shippedAt = shippedAt;
        c.expectedImpact = expectedImpact; c.primaryCtaKind = primaryCtaKind; c.targetLabel = targetLabel;
        c.targetType = targetType; c.targetPayload = targetPayload; c.whatChanged = whatChanged; c.whyNow = whyNow;
        c.commandCenter = commandCenter; c.context = context; c.bucket = bucket; c.suggestionStatus = suggestionStatus;
        c.hidden = hidden; c.actedOn = actedOn; c.highStakes = highStakes; c.brief = brief;
        c.briefBasisHash = briefBasisHash; c.material = material; c.materialHash = materialHash;
        c.promptCount = promptCount; c.userFields = new ArrayList<>(userFields);
        return c;
    }
}
