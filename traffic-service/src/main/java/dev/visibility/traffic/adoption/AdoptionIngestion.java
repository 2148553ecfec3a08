package dev.visibility.traffic.adoption;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import dev.visibility.platform.db.MultiRowInsert;
import dev.visibility.platform.db.MultiRowInsert.Column;
import dev.visibility.platform.events.AdoptionMetricSampled;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Stores the adoption samples of one poll, in the platform's batch transaction (which claimed their
 * eventIds), with two statements: the same domain, metric, source and capturedAt again replaces the
 * value, and each sample makes sure its domain is one of the project's (a domain no configuration
 * lists takes the sample's {@code isPrimary}; a configured one keeps the configuration's). Within a
 * poll the later sample of a key wins, as it would applied after the earlier one.
 */
@Component
class AdoptionIngestion {

    private static final MultiRowInsert DOMAINS = new MultiRowInsert(
            "INSERT INTO domains AS d (id, project_id, domain, is_primary, configured)",
            """
            ON CONFLICT (project_id, domain) DO UPDATE SET is_primary = excluded.is_primary
            WHERE NOT d.configured AND d.is_primary <> excluded.is_primary""",
            List.of(Column.of(UUID.class), Column.of(UUID.class), Column.of(String.class), Column.of(Boolean.class),
                    Column.of(Boolean.class)));

    private static final MultiRowInsert SAMPLES = new MultiRowInsert(
            "INSERT INTO adoption_samples (project_id, domain, metric, source, captured_at, value)",
            "ON CONFLICT (project_id, captured_at, domain, metric, source) DO UPDATE SET value = excluded.value",
            List.of(Column.of(UUID.class), Column.of(String.class), Column.of(String.class), Column.of(String.class),
                    Column.of(Instant.class), Column.of(BigDecimal.class)));

    private final DatabaseClient db;

    AdoptionIngestion(DatabaseClient db) {
        this.db = db;
    }

    Mono<Void> apply(List<AdoptionMetricSampled> samples) {
        // one row a key (PostgreSQL updates a row once a statement): the last sample of each
        Map<List<Object>, Object[]> domains = new LinkedHashMap<>();
        Map<List<Object>, Object[]> values = new LinkedHashMap<>();
        for (AdoptionMetricSampled sample : samples) {
            String domain = sample.domain().toLowerCase(Locale.ROOT);
            domains.put(List.of(sample.projectId(), domain),
                    new Object[] {UUID.randomUUID(), sample.projectId(), domain, sample.isPrimary(), false});
            values.put(List.of(sample.projectId(), sample.capturedAt(), domain, sample.metric(), sample.source()),
                    new Object[] {sample.projectId(), domain, sample.metric(), sample.source(), sample.capturedAt(), sample.value()});
        }
        return DOMAINS.execute(db, new ArrayList<>(domains.values()))
                .then(SAMPLES.execute(db, new ArrayList<>(values.values())))
                .then();
    }
}
