package dev.visibility.actions.action;

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Whether an action has a current implementation brief (spec 6.2 {@code briefReadiness}):
 * {@code status} is ready, stale (written for facts that have since changed materially) or
 * missing; the last three members are null when there is no brief and are written as null.
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record BriefReadiness(boolean hasBrief, String status, Instant generatedAt, Instant updatedAt) {

    public static BriefReadiness of(ActionEntity action) {
        if (action.brief == null) {
            return new BriefReadiness(false, null, null, null);
        }
        return new BriefReadiness(true, action.briefStatus(), action.brief.generatedAt(), action.brief.updatedAt());
    }
}
