package dev.visibility.actions.history;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One entry of {@code GET …/actions/{actionId}/events} (spec E17: "who changed an action and
 * what"; its shape is ours): the kind of change, when, by whom, which fields, from what to what.
 */
public record HistoryEntry(long sequence, String type, Instant occurredAt, String origin, Who actor,
        List<String> changedFields, List<Change> changes) {

    /** userId, keyId and clientId appear only when known. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Who(String type, String userId, String keyId, String clientId) {
    }
}
