package dev.visibility.actions.write;

import java.util.UUID;

import dev.visibility.actions.action.ActionStatus;
import dev.visibility.platform.error.InvalidRequest;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import tools.jackson.databind.JsonNode;

/**
 * The body of {@code PATCH …/actions/{actionId}}, read and validated by the platform's
 * {@code RequestBodies}. {@code assignedTo} and {@code targetLabel} may be set to null (unassign,
 * clear the label), so {@link #toPatch} asks the body whether they were given. At least one field
 * must be given.
 */
public record ActionPatchBody(
        @Pattern(regexp = "suggested|accepted|live|archived",
                message = "must be one of suggested, accepted, live, archived") String status,
        UUID assignedTo,
        @Pattern(regexp = ActionBodies.PRIORITY, message = ActionBodies.PRIORITY_MESSAGE) String priority,
        @Pattern(regexp = ActionBodies.NOT_BLANK, message = "must not be blank")
        @Size(max = ActionBodies.MAX_TARGET_LABEL) String targetLabel,
        Boolean blocked) {

    /** The change: {@code body} tells a field set to null ({@code "assignedTo": null}) from one not given. */
    ActionPatch toPatch(JsonNode body) {
        ActionPatch patch = new ActionPatch(status == null ? null : ActionStatus.fromWire(status),
                body.has("assignedTo") ? new ActionPatch.Set<>(assignedTo) : null,
                priority,
                body.has("targetLabel") ? new ActionPatch.Set<>(targetLabel == null ? null : targetLabel.strip()) : null,
                blocked);
        if (patch.isEmpty()) {
            throw new InvalidRequest("The body must change at least one of assignedTo, blocked, priority, status, targetLabel");
        }
        return patch;
    }
}
