package dev.visibility.platform.events;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.UUID;

/**
 * A record of {@code tracking.runs} (key projectId; schema {@code docs/events/tracking.runs.schema.json}):
 * a finished tracking run with its samples. Internal producers publish it once per run; the same
 * {@code runId} published again (with any eventId) is a duplicate and changes nothing.
 *
 * @param accountId   the account that owns the project; it becomes the {@code accountId} of the
 *                    public events of the run
 * @param finalStatus {@code completed} or {@code failed}; only completed runs have visibility metrics
 * @param capturedOn  the day the run measures (its samples' day); it orders runs, not arrival
 */
public record TrackingRunCompleted(UUID eventId, UUID runId, UUID projectId, String accountId, String finalStatus,
        LocalDate capturedOn, Instant startedAt, Instant completedAt, List<Sample> samples) {

    public static final String COMPLETED = "completed";
    public static final String FAILED = "failed";
    public static final List<String> FINAL_STATUSES = List.of(COMPLETED, FAILED);

    /**
     * One prompt asked on one AI platform (an execution).
     *
     * @param retainUntil when the answer text stops being retained; absent: {@code completedAt}
     *                    plus the configured retention ({@code suite.visibility.response-retention})
     */
    public record Sample(UUID executionId, UUID promptId, String prompt, String platform, String answerText,
            Instant completedAt, Instant retainUntil, List<Citation> citations, List<BrandMention> brandMentions,
            boolean adCaptureMeasured, List<Ad> ads) {
    }

    /** A source the answer cites; {@code own} marks the project's own domains. */
    public record Citation(String url, String domain, boolean own) {
    }

    /** How often a brand is named in the answer; {@code own} marks the project's brand. */
    public record BrandMention(String brand, boolean own, int count) {
    }

    /** A sponsored ad captured next to the answer (spec 2.12). */
    public record Ad(String title, String description, String domain, String name, String body, String url) {
    }
}
