package dev.visibility.platform.events;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import dev.visibility.platform.consumer.ConsumedRecord;
import dev.visibility.platform.consumer.PoisonRecord;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * A record of {@code adoption.metrics} (key projectId): one sample of one adoption metric of one of
 * the project's domains, taken by a registry or code-host poller (spec 2.7: package-registry weekly
 * downloads, code-host stars). traffic-service keeps every sample (one per domain, metric, source and
 * capturedAt; the same sample published again replaces its value) and answers E5 from them. The
 * JSON Schema is {@code docs/events/adoption.metrics.schema.json}.
 *
 * @param domain     the project domain the metric belongs to (lower case compared)
 * @param isPrimary  whether the poller knows it as the project's primary domain; the project's
 *                   configuration ({@code traffic.config}) wins for a domain it names
 * @param metric     {@code code_host_stars} or {@code weekly_downloads}
 * @param source     where the value was read (for example {@code github}, {@code npm}, {@code pypi})
 * @param value      the metric's value, at least 0
 * @param capturedAt when the value was read
 */
public record AdoptionMetricSampled(
        @NotNull UUID eventId,
        @NotNull UUID projectId,
        @NotNull @Size(min = 1, max = 253) @Pattern(regexp = TrafficHitObserved.HOSTNAME_PATTERN, message = "must be a domain name") String domain,
        boolean isPrimary,
        @NotNull @Pattern(regexp = "code_host_stars|weekly_downloads", message = "must be code_host_stars or weekly_downloads") String metric,
        @NotBlank @Size(max = 100) String source,
        @NotNull @DecimalMin("0") BigDecimal value,
        @NotNull Instant capturedAt) implements ConsumedRecord {

    public static final String CODE_HOST_STARS = "code_host_stars";
    public static final String WEEKLY_DOWNLOADS = "weekly_downloads";
    public static final List<String> METRICS = List.of(CODE_HOST_STARS, WEEKLY_DOWNLOADS);

    @Override
    public void validate() {
        if (capturedAt.isAfter(Instant.now().plus(Duration.ofHours(1)))) {
            throw new PoisonRecord("capturedAt lies more than 1 hour in the future");
        }
        if (value.precision() - value.scale() > 18) {
            throw new PoisonRecord("value has more than 18 integer digits");
        }
    }
}
