package dev.visibility.actions.action;

import java.util.List;

/** Builds the response records of spec 2.4 from stored actions, bounding what the context detail carries. */
public final class ActionViews {

    /** At most this many evidence items, winning pages and citation cells per evidence item are shown. */
    public static final int MAX_EVIDENCE = 5;
    public static final int MAX_WINNING_PAGES = 5;
    public static final int MAX_CELLS = 20;

    private ActionViews() {
    }

    public static ActionView summary(ActionEntity a) {
        Opportunity opportunity = a.opportunityView();
        return view(a, opportunity == null ? null : opportunity.withoutMeasurements(), null);
    }

    public static ActionView withContext(ActionEntity a, List<ActionEntity> followUps) {
        ActionContext stored = a.context == null ? ActionContext.empty() : a.context;
        List<ActionContext.TopEvidence> evidence = stored.topEvidence() == null ? List.of()
                : stored.topEvidence().stream().limit(MAX_EVIDENCE).map(ActionViews::boundCells).toList();
        List<ActionContext.WinningPage> pages = stored.winningPages() == null ? List.of()
                : stored.winningPages().stream().limit(MAX_WINNING_PAGES).toList();
        List<ActionView.FollowUpLink> links = followUps.stream()
                .map(f -> new ActionView.FollowUpLink(f.id, f.title, f.status)).toList();
        return view(a, a.opportunityView(), new ActionView.Context(evidence, pages, BriefReadiness.of(a), links));
    }

    private static ActionContext.TopEvidence boundCells(ActionContext.TopEvidence e) {
        if (e.citationLoss() == null || e.citationLoss().cells() == null || e.citationLoss().cells().size() <= MAX_CELLS) {
            return e;
        }
        ActionContext.CitationLoss loss = e.citationLoss();
        return new ActionContext.TopEvidence(e.id(), e.title(), e.summary(), e.type(), e.audit(),
                new ActionContext.CitationLoss(loss.priorCitationCount(), loss.currentCitationCount(), loss.cellCount(),
                        loss.cells().subList(0, MAX_CELLS), loss.pageLabel(), loss.priorExecutions(), loss.currentExecutions()),
                e.googleEligibility());
    }

    private static ActionView view(ActionEntity a, Opportunity opportunity, ActionView.Context context) {
        return new ActionView(a.id, a.title, a.description, List.copyOf(a.channels), a.priority, a.status, a.blocked,
                a.assignedTo, a.ownerName, opportunity, a.effortScore, a.portfolioCategory, a.portfolioRank,
                a.steeredFromPageUrl, a.followUpOf, a.createdAt, a.updatedAt, a.expectedImpact, a.primaryCtaKind,
                a.targetLabel, a.whatChanged, a.whyNow, a.commandCenter, context);
    }
}
