package dev.visibility.actions.events;

import java.util.List;
import java.util.Map;

import dev.visibility.actions.action.ActionContext;
import dev.visibility.actions.action.ActionEntity;
import dev.visibility.actions.action.ActionStatus;
import dev.visibility.actions.action.Actor;
import dev.visibility.actions.action.BriefReadiness;
import dev.visibility.actions.action.Opportunity;
import dev.visibility.platform.events.EventName;
import dev.visibility.platform.events.PublicEvent;
import dev.visibility.platform.outbox.OutboxWriter;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Builds the action events of spec 6.2 and appends them to the outbox, inside the caller's
 * transaction: a change and its events commit together or not at all.
 */
@Component
public class ActionEvents {

    /** {@code surface} of an open system suggestion: the recommendations of the actions workspace. */
    public static final String SURFACE_RECOMMENDATIONS = "recommendations";
    /** {@code surface} of every other action: the team's work in the actions workspace. */
    public static final String SURFACE_WORKSPACE = "workspace";

    public static final String CLASSIFICATION_NEW = "new_recommendation";
    public static final String CLASSIFICATION_BRIEF_STALE_ONLY = "brief_stale_only";

    public static final String CITATION_DEFENCE_FAMILY = "citation_defence";

    static final String MCP_ACTIONS_TOOL = "service_get_actions";
    static final String MCP_BRIEF_TOOL = "service_get_action_brief";
    static final int EVIDENCE_REFS = 5;

    private final OutboxWriter outbox;

    public ActionEvents(OutboxWriter outbox) {
        this.outbox = outbox;
    }

    public Mono<Void> created(ActionEntity a, Actor actor, String accountId) {
        return append(EventName.ACTION_CREATED, a, accountId, base(EventName.ACTION_CREATED, a, actor, List.of(), true, null));
    }

    public Mono<Void> updated(ActionEntity a, Actor actor, String accountId, List<String> changedFields) {
        return append(EventName.ACTION_UPDATED, a, accountId, base(EventName.ACTION_UPDATED, a, actor, changedFields, false, null));
    }

    public Mono<Void> recommendationCreated(ActionEntity a, String accountId, String classification) {
        ActionEventData.RecommendationContext context = recommendationContext(a, List.of(),
                new ActionEventData.Review(classification, a.fingerprintKey));
        return append(EventName.ACTION_RECOMMENDATION_CREATED, a, accountId,
                base(EventName.ACTION_RECOMMENDATION_CREATED, a, Actor.system(), List.of(), true, context));
    }

    public Mono<Void> recommendationUpdated(ActionEntity a, String accountId, List<String> changedFields,
            List<String> changeReasons) {
        ActionEventData.RecommendationContext context = recommendationContext(a, changeReasons, null);
        return append(EventName.ACTION_RECOMMENDATION_UPDATED, a, accountId,
                base(EventName.ACTION_RECOMMENDATION_UPDATED, a, Actor.system(), changedFields, false, context));
    }

    private Mono<Void> append(EventName name, ActionEntity a, String accountId, ActionEventData data) {
        return outbox.append(PublicEvent.of(name, a.projectId.toString(), accountId, data));
    }

    static ActionEventData base(EventName name, ActionEntity a, Actor actor, List<String> changedFields,
            boolean created, ActionEventData.RecommendationContext context) {
        ActionEventData.Actor who = new ActionEventData.Actor(actor.type(), Actor.USER.equals(actor.type()) ? actor.userId() : null);
        ActionEventData.EventAction action = new ActionEventData.EventAction(a.id.toString(), a.title, a.description,
                a.status, surface(a), a.priority, List.copyOf(a.channels), a.target(), a.expectedImpact, a.whatChanged,
                a.updatedAt, a.portfolioRank);
        ActionEventData.Links links = new ActionEventData.Links(
                "/api/v2/projects/" + a.projectId + "/actions/list?detailLevel=context",
                new ActionEventData.McpCall(MCP_ACTIONS_TOOL, Map.of("detailLevel", "context")),
                created ? new ActionEventData.McpCall(MCP_BRIEF_TOOL, Map.of("actionId", a.id.toString())) : null);
        return new ActionEventData(name.wireName(), a.id.toString(), actor.origin(), who, List.copyOf(changedFields),
                action, links, context);
    }

    public static String surface(ActionEntity a) {
        return a.isRecommendation() && a.statusEnum() == ActionStatus.SUGGESTED && !a.hidden
                ? SURFACE_RECOMMENDATIONS : SURFACE_WORKSPACE;
    }

    static ActionEventData.RecommendationContext recommendationContext(ActionEntity a, List<String> reasons,
            ActionEventData.Review review) {
        ActionContext context = a.context == null ? ActionContext.empty() : a.context;
        List<ActionEventData.EvidenceRef> evidence = context.topEvidence() == null ? List.of()
                : context.topEvidence().stream().limit(EVIDENCE_REFS)
                        .map(e -> new ActionEventData.EvidenceRef(e.id(), e.title(), e.summary(), e.type())).toList();
        return new ActionEventData.RecommendationContext(a.bucket, a.whyNow, evidence, BriefReadiness.of(a),
                List.copyOf(reasons), review, opportunity(a));
    }

    /** Present only for a live (open, suggested) recommendation ranked on the opportunity contract. */
    static ActionEventData.EventOpportunity opportunity(ActionEntity a) {
        Opportunity o = a.opportunity;
        if (o == null || a.statusEnum() != ActionStatus.SUGGESTED || a.hidden
                || !Opportunity.RANKED.equals(a.percentileStatus) || a.percentile == null) {
            return null;
        }
        ActionEventData.EventMeasurements measurements = null;
        if (CITATION_DEFENCE_FAMILY.equals(o.family()) && o.measurements() != null) {
            Opportunity.Measurements m = o.measurements();
            measurements = new ActionEventData.EventMeasurements(m.asOfDate(), m.currentCitationCount(),
                    m.priorCitationCount(), m.currentProbeDays(), m.priorProbeDays());
        }
        return new ActionEventData.EventOpportunity(a.percentile, a.percentilePoolSize, o.components(), o.estimated(),
                o.family(), o.measuredFacts() == null ? List.of() : o.measuredFacts(), measurements);
    }
}
