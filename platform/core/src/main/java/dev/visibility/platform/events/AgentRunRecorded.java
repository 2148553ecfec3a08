package dev.visibility.platform.events;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.visibility.platform.consumer.ConsumedRecord;
import dev.visibility.platform.consumer.PoisonRecord;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;

/**
 * A record of {@code agents.runs} (key projectId; schema {@code docs/events/agents.runs.schema.json}):
 * the state of one managed-agent run as of {@code revision}, published by the agent runner on every
 * change of status, usage, credits, draft output or review state. agents-service keeps the state
 * of the highest revision (a late, older record never rolls a run back) and answers E8 from it.
 *
 * @param revision    grows with every state of the run
 * @param status      the run's status, one of {@link #STATUSES}
 * @param reviewState the review of the run's draft, one of {@link #REVIEW_STATES}; E8 shows
 *                    {@code draftOutput} only once it is {@code completed} (spec 3, E8)
 * @param usage       what the run consumed (contents not shown by the specification: kept as given)
 * @param draftOutput the draft the run produced, kept as given; may arrive before the review completes
 */
public record AgentRunRecorded(
        @NotNull UUID eventId,
        @NotNull UUID projectId,
        @NotNull UUID runId,
        @PositiveOrZero long revision,
        @NotNull @Pattern(regexp = STATUS_PATTERN, message = "must be one of queued, running, completed, failed, cancelled") String status,
        @NotNull @Pattern(regexp = REVIEW_PATTERN, message = "must be one of not_started, awaiting_review, completed, rejected") String reviewState,
        @NotBlank @Size(max = 200) String workflowKey,
        @Size(min = 1, max = 200) String scheduleOccurrenceKey,
        @NotNull Instant createdAt,
        Instant startedAt,
        Instant completedAt,
        @NotNull @PositiveOrZero @DecimalMax("1000000000") BigDecimal creditsUsed,
        @Size(max = 200) Map<String, Object> usage,
        @Size(max = 1000) Map<String, Object> draftOutput,
        @Valid Evidence evidenceBlock,
        @NotNull @Valid Definition definition) implements ConsumedRecord {

    public static final List<String> STATUSES = List.of("queued", "running", "completed", "failed", "cancelled");
    public static final List<String> REVIEW_STATES = List.of("not_started", "awaiting_review", "completed", "rejected");
    /** The review state after which E8 shows the draft output. */
    public static final String REVIEW_COMPLETED = "completed";

    static final String STATUS_PATTERN = "queued|running|completed|failed|cancelled";
    static final String REVIEW_PATTERN = "not_started|awaiting_review|completed|rejected";

    /**
     * What the run's evidence allowed (spec 2.9): a verdict ({@code blocked} is one value) and the
     * sources that were unavailable, each with its state ({@code missing} is one value).
     */
    public record Evidence(
            @NotBlank @Size(max = 100) String verdict,
            @NotNull @Size(max = 50) List<@NotNull @Valid Unavailable> unavailable) {
    }

    public record Unavailable(@NotBlank @Size(max = 100) String source, @NotBlank @Size(max = 100) String state) {
    }

    /** The agent definition the run executed (spec 2.9 {@code definition}). */
    public record Definition(
            @NotBlank @Size(max = 200) String agentKey,
            @Size(max = 2000) String description,
            @NotBlank @Size(max = 200) String displayName,
            @NotBlank @Size(max = 200) String workflowKey,
            @NotBlank @Size(max = 200) String outputArtifactType,
            @JsonProperty("isCustom") boolean isCustom,
            @Valid Evidence evidence,
            @NotNull @Size(max = 50) List<@NotBlank @Size(max = 200) String> quickActions) {
    }

    /** Rules the annotations do not express; a record that breaks one is poison. */
    @Override
    public void validate() {
        if (startedAt != null && startedAt.isBefore(createdAt)) {
            throw new PoisonRecord("startedAt is before createdAt");
        }
        if (completedAt != null && completedAt.isBefore(startedAt != null ? startedAt : createdAt)) {
            throw new PoisonRecord("completedAt is before startedAt (or createdAt)");
        }
        if (!definition.workflowKey().equals(workflowKey)) {
            throw new PoisonRecord("definition.workflowKey differs from workflowKey");
        }
    }
}
