package dev.visibility.platform.events;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.UUID;

import dev.visibility.platform.consumer.ConsumedRecord;
import dev.visibility.platform.consumer.PoisonRecord;

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
        LocalDate capturedOn, Instant startedAt, Instant completedAt, List<Sample> samples) implements ConsumedRecord {

    public static final String COMPLETED = "completed";
    public static final String FAILED = "failed";
    public static final List<String> FINAL_STATUSES = List.of(COMPLETED, FAILED);
    /** Samples per record at most. */
    public static final int MAX_SAMPLES = 5_000;

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

    /** The rules of the topic's schema that the types do not enforce; a record that breaks one is poison. */
    @Override
    public void validate() {
        check(this);
    }

    private static void check(TrackingRunCompleted run) {
        if (run == null || run.eventId() == null || run.runId() == null || run.projectId() == null
                || blank(run.accountId()) || tooLong(run.accountId(), 100)) {
            throw new PoisonRecord("lacks eventId, runId, projectId or accountId");
        }
        if (!TrackingRunCompleted.FINAL_STATUSES.contains(run.finalStatus())) {
            throw new PoisonRecord("finalStatus must be one of " + TrackingRunCompleted.FINAL_STATUSES);
        }
        if (run.capturedOn() == null || run.completedAt() == null) {
            throw new PoisonRecord("lacks capturedOn or completedAt");
        }
        if (run.samples() == null || run.samples().size() > MAX_SAMPLES) {
            throw new PoisonRecord("samples must be an array of at most " + MAX_SAMPLES);
        }
        for (TrackingRunCompleted.Sample s : run.samples()) {
            if (s == null || s.executionId() == null || s.promptId() == null || blank(s.platform())
                    || tooLong(s.platform(), 100) || s.completedAt() == null) {
                throw new PoisonRecord("every sample needs executionId, promptId, platform and completedAt");
            }
            if (s.ads() != null && s.ads().stream().anyMatch(a -> a == null)
                    || s.citations() != null && s.citations().stream().anyMatch(c -> c == null)
                    || s.brandMentions() != null && s.brandMentions().stream().anyMatch(m -> m == null || m.count() < 0)) {
                throw new PoisonRecord("ads, citations and brandMentions must not hold nulls or negative counts");
            }
        }
        if (run.samples().stream().map(TrackingRunCompleted.Sample::executionId).distinct().count() != run.samples().size()) {
            throw new PoisonRecord("executionId repeats within the run");
        }
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }

    private static boolean tooLong(String value, int max) {
        return value != null && value.length() > max;
    }
}
