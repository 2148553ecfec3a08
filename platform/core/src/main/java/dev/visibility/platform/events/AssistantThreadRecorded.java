package dev.visibility.platform.events;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

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
 * A record of {@code agents.threads} (key projectId; schema {@code docs/events/agents.threads.schema.json}):
 * one thing that happened in a chat thread of the assistant, published by the assistant. Which
 * members are set depends on {@code kind}:
 * <ul>
 * <li>{@code thread_created}: {@code ownerMemberId} (the member whose chat it is), optional {@code title};</li>
 * <li>{@code handoff_offered}: {@code handoff}, a specialist handoff the member may accept (spec 2.10);</li>
 * <li>{@code handoff_accepted}, {@code handoff_expired}: {@code handoffId} of an offered handoff;</li>
 * <li>{@code credits_used}: {@code creditsUsed}, billed to the thread's project (kept after a delete).</li>
 * </ul>
 * A thread belongs to one project for good. agents-service de-duplicates by eventId.
 */
public record AssistantThreadRecorded(
        @NotNull UUID eventId,
        @NotNull UUID projectId,
        @NotNull UUID threadId,
        @NotNull @Pattern(regexp = KIND_PATTERN,
                message = "must be one of thread_created, handoff_offered, handoff_accepted, handoff_expired, credits_used") String kind,
        @NotNull Instant occurredAt,
        UUID ownerMemberId,
        @Size(max = 300) String title,
        @Valid Handoff handoff,
        UUID handoffId,
        @PositiveOrZero @DecimalMax("1000000000") BigDecimal creditsUsed) implements ConsumedRecord {

    public static final String THREAD_CREATED = "thread_created";
    public static final String HANDOFF_OFFERED = "handoff_offered";
    public static final String HANDOFF_ACCEPTED = "handoff_accepted";
    public static final String HANDOFF_EXPIRED = "handoff_expired";
    public static final String CREDITS_USED = "credits_used";
    public static final List<String> KINDS = List.of(THREAD_CREATED, HANDOFF_OFFERED, HANDOFF_ACCEPTED, HANDOFF_EXPIRED,
            CREDITS_USED);

    static final String KIND_PATTERN = "thread_created|handoff_offered|handoff_accepted|handoff_expired|credits_used";

    /** A specialist handoff offered in the thread (spec 2.10). */
    public record Handoff(
            @NotNull UUID handoffId,
            @NotBlank @Size(max = 200) String agent,
            @NotBlank @Size(max = 200) String agentKey,
            @NotNull @PositiveOrZero @DecimalMax("1000000000") BigDecimal estimateCredits,
            @NotNull Instant expiresAt,
            @NotNull @Size(max = 10_000) String instructions) {
    }

    /** The members each kind needs; a record without them is poison. */
    @Override
    public void validate() {
        switch (kind) {
            case THREAD_CREATED -> require(ownerMemberId != null, "thread_created needs ownerMemberId");
            case HANDOFF_OFFERED -> require(handoff != null, "handoff_offered needs handoff");
            case HANDOFF_ACCEPTED, HANDOFF_EXPIRED -> require(handoffId != null, kind + " needs handoffId");
            case CREDITS_USED -> require(creditsUsed != null, "credits_used needs creditsUsed");
            default -> throw new PoisonRecord("unknown kind");
        }
    }

    private static void require(boolean condition, String reason) {
        if (!condition) {
            throw new PoisonRecord(reason);
        }
    }
}
