package dev.visibility.auth.usage;

import java.time.LocalDate;

/** {@code data} of {@code GET /api/v2/projects/{projectId}/usage} (spec 5.7). */
public record ProjectUsage(String projectId, boolean paused, String plan, boolean apiAccess, Period period,
        Requests requests) {

    /** The current calendar month in UTC, first and last day. */
    public record Period(LocalDate dateFrom, LocalDate dateTo) {
    }

    public record Requests(long total) {
    }
}
