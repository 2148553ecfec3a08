package dev.visibility.actions.write;

import java.util.List;

/** The limits of the action write bodies ({@link NewAction}, {@link ActionPatchBody}), stated once. */
public final class ActionBodies {

    public static final List<String> PRIORITIES = List.of("high", "medium", "low");
    static final String PRIORITY = "high|medium|low";
    static final String PRIORITY_MESSAGE = "must be one of high, medium, low";
    static final int MAX_TITLE = 200;
    static final int MAX_DESCRIPTION = 5000;
    static final int MAX_TARGET_LABEL = 200;
    static final int MAX_CHANNELS = 10;
    static final String CHANNEL = "[a-z0-9][a-z0-9_-]{0,39}";
    static final String CHANNEL_MESSAGE = "must hold channel names (lowercase letters, digits, '_' or '-', at most 40 characters)";
    /** Some non-blank character; null passes (absent). */
    static final String NOT_BLANK = "(?s).*\\S.*";

    private ActionBodies() {
    }

    static String strip(String text) {
        return text == null ? null : text.strip();
    }
}
