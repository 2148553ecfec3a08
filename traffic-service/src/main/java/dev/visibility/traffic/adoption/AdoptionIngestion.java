package dev.visibility.traffic.adoption;

import java.util.Locale;
import java.util.UUID;

import dev.visibility.platform.events.AdoptionMetricSampled;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Stores one adoption sample (the same domain, metric, source and capturedAt again replaces the
 * value) and makes sure its domain is one of the project's: a domain no configuration lists takes
 * the sample's {@code isPrimary}; a configured one keeps the configuration's.
 */
@Component
class AdoptionIngestion {

    private final DatabaseClient db;

    AdoptionIngestion(DatabaseClient db) {
        this.db = db;
    }

    Mono<Void> apply(AdoptionMetricSampled sample) {
        String domain = sample.domain().toLowerCase(Locale.ROOT);
        Mono<Long> domainRow = db.sql("""
                INSERT INTO domains AS d (id, project_id, domain, is_primary, configured)
                VALUES (:id, :project, :domain, :primary, false)
                ON CONFLICT (project_id, domain) DO UPDATE SET is_primary = excluded.is_primary
                WHERE NOT d.configured AND d.is_primary <> excluded.is_primary""")
                .bind("id", UUID.randomUUID()).bind("project", sample.projectId()).bind("domain", domain)
                .bind("primary", sample.isPrimary())
                .fetch().rowsUpdated();
        Mono<Long> sampleRow = db.sql("""
                INSERT INTO adoption_samples (project_id, domain, metric, source, captured_at, value)
                VALUES (:project, :domain, :metric, :source, :capturedAt, :value)
                ON CONFLICT (project_id, captured_at, domain, metric, source) DO UPDATE SET value = excluded.value""")
                .bind("project", sample.projectId()).bind("domain", domain).bind("metric", sample.metric())
                .bind("source", sample.source()).bind("capturedAt", sample.capturedAt()).bind("value", sample.value())
                .fetch().rowsUpdated();
        return domainRow.then(sampleRow).then();
    }
}
