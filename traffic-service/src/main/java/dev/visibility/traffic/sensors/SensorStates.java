package dev.visibility.traffic.sensors;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.traffic.config.TrafficProperties;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/** Reads a project's sensor sources and evaluates each one's state at the current time. */
@Component
public class SensorStates {

    private final DatabaseClient db;
    private final Clock clock;
    private final TrafficProperties properties;

    SensorStates(DatabaseClient db, Clock clock, TrafficProperties properties) {
        this.db = db;
        this.clock = clock;
        this.properties = properties;
    }

    /** The state of every source of the project, by source name; kinds alongside (for E11). */
    public Mono<Project> of(UUID project) {
        Mono<List<Map<String, Object>>> sources = db.sql("""
                SELECT source, kind, freshness_window_hours, configured_domains, last_accepted_at
                FROM sensor_sources WHERE project_id = :project ORDER BY source""")
                .bind("project", project)
                .map(row -> {
                    Map<String, Object> r = new LinkedHashMap<>();
                    r.put("source", row.get("source", String.class));
                    r.put("kind", row.get("kind", String.class));
                    r.put("window", row.get("freshness_window_hours", BigDecimal.class));
                    String[] domains = row.get("configured_domains", String[].class);
                    r.put("domains", domains == null ? List.of() : Arrays.asList(domains));
                    r.put("last", row.get("last_accepted_at", OffsetDateTime.class));
                    return r;
                })
                .all().collectList();
        Mono<Map<String, List<SensorState.Hostname>>> hostnames = db.sql("""
                SELECT source, hostname, last_accepted_at FROM sensor_hostnames
                WHERE project_id = :project ORDER BY source, hostname""")
                .bind("project", project)
                .map(row -> Map.entry(row.get("source", String.class), new SensorState.Hostname(
                        row.get("hostname", String.class), row.get("last_accepted_at", OffsetDateTime.class).toInstant())))
                .all()
                .collect(LinkedHashMap::new, (map, e) -> map.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue()));
        return Mono.zip(sources, hostnames).map(both -> {
            Instant now = clock.instant();
            List<SensorState.Source> states = new ArrayList<>();
            Map<String, String> kinds = new LinkedHashMap<>();
            for (Map<String, Object> r : both.getT1()) {
                BigDecimal configured = (BigDecimal) r.get("window");
                BigDecimal hours = configured != null ? configured
                        : BigDecimal.valueOf(properties.defaultFreshnessWindow().toSeconds()).divide(BigDecimal.valueOf(3600));
                OffsetDateTime last = (OffsetDateTime) r.get("last");
                String source = (String) r.get("source");
                String state = last == null ? SensorState.AWAITING_FIRST_HIT
                        : Duration.between(last.toInstant(), now).toMillis() <= hours.multiply(BigDecimal.valueOf(3_600_000)).longValue()
                                ? SensorState.ACTIVE : SensorState.STALE;
                @SuppressWarnings("unchecked")
                List<String> domains = (List<String>) r.get("domains");
                states.add(new SensorState.Source(source, state, last == null ? null : last.toInstant(), number(hours),
                        both.getT2().getOrDefault(source, List.of()), domains));
                kinds.put(source, (String) r.get("kind"));
            }
            return new Project(new SensorState(now, states), kinds);
        });
    }

    private static Number number(BigDecimal hours) {
        BigDecimal stripped = hours.stripTrailingZeros();
        return stripped.scale() <= 0 ? (Number) stripped.longValueExact() : (Number) stripped.doubleValue();
    }

    /** A project's sensor state and the configured kind of each source (null when not configured). */
    public record Project(SensorState state, Map<String, String> kinds) {

        public List<String> activeSources() {
            return state.sources().stream().filter(SensorState.Source::active).map(SensorState.Source::source).toList();
        }

        public boolean middlewareActive() {
            return state.sources().stream().anyMatch(s -> s.active() && "middleware".equals(kinds.get(s.source())));
        }
    }
}
