package dev.visibility.actions.write;

import java.util.UUID;

import dev.visibility.actions.action.ActionStatus;

/**
 * A validated body of {@code PATCH …/actions/{actionId}}. A null member was absent; a
 * {@link Set} member distinguishes "set to null" (unassign, clear the label) from absent.
 */
public record ActionPatch(ActionStatus status, Set<UUID> assignedTo, String priority, Set<String> targetLabel,
        Boolean blocked) {

    public record Set<T>(T value) {
    }

    public boolean isEmpty() {
        return status == null && assignedTo == null && priority == null && targetLabel == null && blocked == null;
    }
}
