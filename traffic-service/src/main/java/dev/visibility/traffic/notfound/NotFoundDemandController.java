package dev.visibility.traffic.notfound;

import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import dev.visibility.platform.query.QueryParams;
import dev.visibility.platform.web.Envelope;
import dev.visibility.traffic.notfound.NotFoundClusters.Cluster;
import dev.visibility.traffic.sensors.SensorStates;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.ObjectMapper;

/**
 * E11 {@code GET /api/v2/projects/{projectId}/traffic/404-demand} ({@code traffic.read}): the
 * clusters of the project's current materializer window ({@link NotFoundMaterializer}) with its
 * state, and the project's sensor coverage. Degraded states are answered, not failed:
 * {@code dataAvailability} is {@code materializer_failed} after a failed run (state {@code failed}
 * with {@code lastError}; the clusters of the last completed run stay), {@code no_sensor_connected}
 * while no source is active, {@code pending} before the first run, else {@code available}.
 */
@RestController
class NotFoundDemandController {

    private static final TypeReference<List<List<Cluster>>> LISTS = new TypeReference<>() {
    };

    private final DatabaseClient db;
    private final SensorStates sensors;
    private final NotFoundMaterializer materializer;
    private final ObjectMapper mapper;

    NotFoundDemandController(DatabaseClient db, SensorStates sensors, NotFoundMaterializer materializer,
            ObjectMapper mapper) {
        this.db = db;
        this.sensors = sensors;
        this.materializer = materializer;
        this.mapper = mapper;
    }

    record Stored(String status, LocalDate windowStart, LocalDate windowEnd, OffsetDateTime completedAt, String lastError,
            long clusterCount, long requestCount, String clusters) {
    }

    @GetMapping(path = "/api/v2/projects/{projectId}/traffic/404-demand", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<Envelope<NotFoundDemand>> demand(@PathVariable String projectId) {
        UUID project = QueryParams.pathUuid("projectId", projectId);
        Mono<Optional<Stored>> stored = db.sql("""
                SELECT status, window_start, window_end, completed_at, last_error, cluster_count, request_count,
                       clusters::text AS clusters
                FROM not_found_materializations WHERE project_id = :project""")
                .bind("project", project)
                .map(row -> new Stored(row.get("status", String.class), row.get("window_start", LocalDate.class),
                        row.get("window_end", LocalDate.class), row.get("completed_at", OffsetDateTime.class),
                        row.get("last_error", String.class), ((Number) row.get("cluster_count")).longValue(),
                        ((Number) row.get("request_count")).longValue(), row.get("clusters", String.class)))
                .one().map(Optional::of).defaultIfEmpty(Optional.empty());
        return Mono.zip(stored, sensors.of(project)).map(both -> {
            Optional<Stored> run = both.getT1();
            SensorStates.Project sensorState = both.getT2();
            List<String> connected = sensorState.activeSources();
            NotFoundDemand.TrafficSensors trafficSensors = new NotFoundDemand.TrafficSensors(connected,
                    !connected.isEmpty(), sensorState.middlewareActive());
            List<Cluster> clusters = List.of();
            List<Cluster> noise = List.of();
            NotFoundDemand.State state;
            LocalDate[] window = materializer.window();
            if (run.isEmpty()) {
                state = new NotFoundDemand.State(0, 0, null, null, NotFoundDemand.PENDING, window[0], window[1]);
            } else {
                Stored s = run.get();
                List<List<Cluster>> lists = mapper.readValue(s.clusters(), LISTS);
                if (lists.size() == 2) {
                    clusters = lists.get(0);
                    noise = lists.get(1);
                }
                state = new NotFoundDemand.State(s.clusterCount(), s.requestCount(),
                        s.completedAt() == null ? null : s.completedAt().toInstant(), s.lastError(), s.status(),
                        s.windowStart() == null ? window[0] : s.windowStart(),
                        s.windowEnd() == null ? window[1] : s.windowEnd());
            }
            String availability = NotFoundMaterializer.FAILED.equals(state.status()) ? NotFoundDemand.MATERIALIZER_FAILED
                    : !trafficSensors.hasConnectedSensor() ? NotFoundDemand.NO_SENSOR_CONNECTED
                    : run.isEmpty() ? NotFoundDemand.PENDING
                    : NotFoundDemand.AVAILABLE;
            return Envelope.of(new NotFoundDemand(clusters, noise, availability, "project", !clusters.isEmpty(), state,
                    trafficSensors), projectId);
        });
    }
}
