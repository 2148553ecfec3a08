package dev.visibility.traffic.settings;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

import dev.visibility.platform.events.TrafficConfigured;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Replaces a project's traffic configuration with a {@code traffic.config} record whose
 * configuredAt is later than the stored one's (an older record changes nothing): its domains become
 * the configured ones (primary as it says; other domains lose both marks but stay, with their
 * adoption samples), its sources the configured ones (window, kind, domains; other sources keep
 * their hits and state but lose their configuration, and one that never sent a hit is removed).
 */
@Component
class ConfigIngestion {

    private final DatabaseClient db;

    ConfigIngestion(DatabaseClient db) {
        this.db = db;
    }

    Mono<Void> apply(TrafficConfigured config) {
        UUID project = config.projectId();
        return db.sql("""
                INSERT INTO project_config AS c (project_id, configured_at) VALUES (:project, :at)
                ON CONFLICT (project_id) DO UPDATE SET configured_at = excluded.configured_at
                WHERE c.configured_at < excluded.configured_at""")
                .bind("project", project).bind("at", config.configuredAt())
                .fetch().rowsUpdated()
                .flatMap(changed -> changed == 0 ? Mono.empty() : replace(config));
    }

    private Mono<Void> replace(TrafficConfigured config) {
        UUID project = config.projectId();
        List<String> domains = config.domains().stream().map(d -> d.domain().toLowerCase(Locale.ROOT)).toList();
        List<String> sources = config.sources().stream().map(TrafficConfigured.Source::source).toList();
        Mono<Long> unmarkDomains = db.sql("""
                UPDATE domains SET configured = false, is_primary = false
                WHERE project_id = :project AND configured AND NOT (domain = ANY(:domains))""")
                .bind("project", project).bind("domains", domains.toArray(String[]::new))
                .fetch().rowsUpdated();
        Flux<Long> upsertDomains = Flux.fromIterable(config.domains()).concatMap(d -> db.sql("""
                INSERT INTO domains AS d (id, project_id, domain, is_primary, configured)
                VALUES (:id, :project, :domain, :primary, true)
                ON CONFLICT (project_id, domain) DO UPDATE SET is_primary = excluded.is_primary, configured = true""")
                .bind("id", UUID.randomUUID()).bind("project", project)
                .bind("domain", d.domain().toLowerCase(Locale.ROOT)).bind("primary", d.isPrimary())
                .fetch().rowsUpdated());
        Mono<Long> dropSources = db.sql("""
                DELETE FROM sensor_sources
                WHERE project_id = :project AND last_accepted_at IS NULL AND NOT (source = ANY(:sources))""")
                .bind("project", project).bind("sources", sources.toArray(String[]::new))
                .fetch().rowsUpdated();
        Mono<Long> unmarkSources = db.sql("""
                UPDATE sensor_sources SET configured = false, kind = NULL, freshness_window_hours = NULL,
                    configured_domains = '{}'
                WHERE project_id = :project AND configured AND NOT (source = ANY(:sources))""")
                .bind("project", project).bind("sources", sources.toArray(String[]::new))
                .fetch().rowsUpdated();
        Flux<Long> upsertSources = Flux.fromIterable(config.sources()).concatMap(s -> {
            List<String> sourceDomains = new ArrayList<>();
            s.domains().forEach(d -> sourceDomains.add(d.toLowerCase(Locale.ROOT)));
            DatabaseClient.GenericExecuteSpec spec = db.sql("""
                    INSERT INTO sensor_sources AS s (project_id, source, configured, kind, freshness_window_hours,
                                                     configured_domains)
                    VALUES (:project, :source, true, :kind, :window, :domains)
                    ON CONFLICT (project_id, source) DO UPDATE SET configured = true, kind = excluded.kind,
                        freshness_window_hours = excluded.freshness_window_hours,
                        configured_domains = excluded.configured_domains""")
                    .bind("project", project).bind("source", s.source()).bind("window", s.freshnessWindowHours())
                    .bind("domains", sourceDomains.toArray(String[]::new));
            spec = s.kind() == null ? spec.bindNull("kind", String.class) : spec.bind("kind", s.kind());
            return spec.fetch().rowsUpdated();
        });
        return unmarkDomains.thenMany(upsertDomains).then(dropSources).then(unmarkSources).thenMany(upsertSources).then();
    }
}
