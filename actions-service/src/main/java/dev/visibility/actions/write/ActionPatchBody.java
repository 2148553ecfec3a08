package dev.visibility.actions.write;

import java.util.Optional;
import java.util.UUID;

import dev.visibility.actions.action.ActionStatus;
import dev.visibility.platform.error.InvalidRequest;
import dev.visibility.platform.web.RequestBodies;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * The body of {@code PATCH …/actions/{actionId}}, read and validated by the platform's
 * {@code RequestBodies}. {@code assignedTo} and {@code targetLabel} may be set to null (unassign,
 * clear the label): absent is {@code null}, JSON null is {@code Optional.empty()}. At least one
 * field must be given.
 */
public record ActionPatchBody(
        @Pattern(regexp = "suggested|accepted|live|archived",
                message = "must be one of suggested, accepted, live, archived") String status,
        Optional<UUID> assignedTo,
        @Pattern(regexp = ActionBodies.PRIORITY, message = ActionBodies.PRIORITY_MESSAGE) String priority,
        Optional<@Pattern(regexp = ActionBodies.NOT_BLANK, message = "must not be blank")
                @Size(max = ActionBodies.MAX_TARGET_LABEL) String> targetLabel,
        Boolean blocked) implements RequestBodies.Checked {

    @Override
    public void check() {
        if (status == null && assignedTo == null && priority == null && targetLabel == null && blocked == null) {
            throw new InvalidRequest("The body must change at least one of assignedTo, blocked, priority, status, targetLabel");
        }
    }

    ActionPatch toPatch() {
        return new ActionPatch(status == null ? null : ActionStatus.fromWire(status),
                assignedTo == null ? null : new ActionPatch.Set<>(assignedTo.orElse(null)),
                priority,
                targetLabel == null ? null : new ActionPatch.Set<>(targetLabel.map(String::strip).orElse(null)),
                blocked);
    }
}
