package dev.visibility.actions.write;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.UUID;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * The body of {@code POST …/actions} (DESIGN.md "Action writes"), read and validated by the
 * platform's {@code RequestBodies}: each broken rule is a 400 naming its field, unknown fields are
 * refused. Text is stored without surrounding blanks; a channel named twice counts once.
 */
public record NewAction(
        @NotBlank @Size(max = ActionBodies.MAX_TITLE) String title,
        @NotBlank @Size(max = ActionBodies.MAX_DESCRIPTION) String description,
        @NotNull @Size(min = 1, max = ActionBodies.MAX_CHANNELS)
        List<@NotNull @Pattern(regexp = ActionBodies.CHANNEL, message = ActionBodies.CHANNEL_MESSAGE) String> channels,
        @NotNull @Pattern(regexp = ActionBodies.PRIORITY, message = ActionBodies.PRIORITY_MESSAGE) String priority,
        @Pattern(regexp = ActionBodies.NOT_BLANK, message = "must not be blank") @Size(max = ActionBodies.MAX_TARGET_LABEL)
        String targetLabel,
        UUID assignedTo) {

    public NewAction {
        title = ActionBodies.strip(title);
        description = ActionBodies.strip(description);
        targetLabel = ActionBodies.strip(targetLabel);
        channels = channels == null ? null : new ArrayList<>(new LinkedHashSet<>(channels));
    }
}
