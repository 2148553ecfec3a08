package dev.visibility.actions.action;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Action status (spec 3) and the transitions this service allows (the specification shows none):
 * <pre>
 * suggested → accepted | archived
 * accepted  → live | suggested (back to the backlog) | archived
 * live      → accepted (reopened) | archived
 * archived  → suggested (restored) — not for a recommendation its producer withdrew
 * </pre>
 */
public enum ActionStatus {
    SUGGESTED, ACCEPTED, LIVE, ARCHIVED;

    public static final List<String> WIRE_NAMES = Arrays.stream(values()).map(ActionStatus::wire).toList();

    public String wire() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static ActionStatus fromWire(String value) {
        return valueOf(value.toUpperCase(java.util.Locale.ROOT));
    }

    public Set<ActionStatus> next() {
        return switch (this) {
            case SUGGESTED -> EnumSet.of(ACCEPTED, ARCHIVED);
            case ACCEPTED -> EnumSet.of(LIVE, SUGGESTED, ARCHIVED);
            case LIVE -> EnumSet.of(ACCEPTED, ARCHIVED);
            case ARCHIVED -> EnumSet.of(SUGGESTED);
        };
    }

    public boolean canMoveTo(ActionStatus target) {
        return next().contains(target);
    }
}
