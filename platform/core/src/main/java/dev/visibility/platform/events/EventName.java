package dev.visibility.platform.events;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The six webhook event names of spec 6. */
public enum EventName {
    SEARCH_TRACKING_COMPLETED("search-tracking.completed"),
    VISIBILITY_CHANGED("visibility.changed"),
    ACTION_CREATED("action.created"),
    ACTION_UPDATED("action.updated"),
    ACTION_RECOMMENDATION_CREATED("action.recommendation.created"),
    ACTION_RECOMMENDATION_UPDATED("action.recommendation.updated");

    private final String wireName;

    EventName(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<EventName> fromWire(String name) {
        return Arrays.stream(values()).filter(e -> e.wireName.equals(name)).findFirst();
    }

    public static List<String> wireNames() {
        return Arrays.stream(values()).map(EventName::wireName).toList();
    }
}
