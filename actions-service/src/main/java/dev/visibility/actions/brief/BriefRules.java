package dev.visibility.actions.brief;

import dev.visibility.actions.action.ActionEntity;
import dev.visibility.actions.action.ActionStatus;

/** When a brief can be (re)generated: the action is not archived and has no current brief. */
public final class BriefRules {

    private BriefRules() {
    }

    public static boolean canGenerateBrief(ActionEntity a) {
        return a.statusEnum() != ActionStatus.ARCHIVED && !"ready".equals(a.briefStatus());
    }
}
