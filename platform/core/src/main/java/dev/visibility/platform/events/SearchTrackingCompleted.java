package dev.visibility.platform.events;

/** {@code data} of {@code search-tracking.completed} (spec 6.2). */
public record SearchTrackingCompleted(String runId, String finalStatus) {
}
