package dev.visibility.actions.write;

import java.util.List;
import java.util.UUID;

/** A validated body of {@code POST …/actions} (DESIGN.md "Action writes"). */
public record NewAction(String title, String description, List<String> channels, String priority, String targetLabel,
        UUID assignedTo) {
}
