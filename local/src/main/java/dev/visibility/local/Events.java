package dev.visibility.local;

import java.util.List;

/** The six webhook event names of spec 6 (the platform's EventName, repeated here to keep Spring off this classpath). */
final class Events {

    static final String SEARCH_TRACKING_COMPLETED = "search-tracking.completed";
    static final String VISIBILITY_CHANGED = "visibility.changed";
    static final List<String> ALL = List.of(SEARCH_TRACKING_COMPLETED, VISIBILITY_CHANGED, "action.created",
            "action.updated", "action.recommendation.created", "action.recommendation.updated");

    private Events() {
    }
}
