package dev.visibility.actions.prompts;

import java.util.UUID;

/**
 * An item of E6 (spec 2.5). {@code suggestionStatus}: open, adopted, dismissed or withdrawn;
 * {@code briefStatus}: ready, stale or missing; {@code relationship} is always {@code evidence}
 * (linked by stored prompt evidence); {@code supportingPromptCount} counts the distinct prompts
 * of the action's evidence.
 */
public record PromptLinkedAction(UUID id, String title, String status, String suggestionStatus, String briefStatus,
        boolean hidden, boolean canGenerateBrief, boolean canRestore, boolean requiresHighStakesAcknowledgement,
        String relationship, int supportingPromptCount) {
}
