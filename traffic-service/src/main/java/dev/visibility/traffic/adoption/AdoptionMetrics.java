package dev.visibility.traffic.adoption;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/** {@code data} of E5 (spec 2.7). */
public record AdoptionMetrics(List<Metric> metrics, List<Domain> domains) {

    /** One sample; {@code isPrimary} is its domain's (as in {@code domains}). */
    public record Metric(String domain, boolean isPrimary, String metric, String source, BigDecimal value,
            Instant capturedAt) {
    }

    public record Domain(String id, String domain, boolean isPrimary) {
    }
}
