package dev.visibility.traffic.notfound;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;

import dev.visibility.traffic.notfound.NotFoundClusters.Cluster;

/** {@code data} of E11 (spec 2.11). */
public record NotFoundDemand(List<Cluster> clusters, List<Cluster> suspectedNoiseClusters, String dataAvailability,
        String dataScope, boolean hasObservedDemand, State state, TrafficSensors trafficSensors) {

    public static final String AVAILABLE = "available";
    public static final String NO_SENSOR_CONNECTED = "no_sensor_connected";
    public static final String MATERIALIZER_FAILED = "materializer_failed";
    public static final String PENDING = "pending";

    /**
     * @param status {@code completed}, {@code failed} (the last run failed; clusters are those of the
     *               last completed run, if any) or {@code pending} (no run yet)
     */
    public record State(long clusterCount, long requestCount, Instant completedAt, String lastError, String status,
            LocalDate windowStart, LocalDate windowEnd) {
    }

    /**
     * @param connectedProviders  the sources that are active now (last accepted hit within their freshness window)
     * @param hasConnectedSensor  whether any is
     * @param middlewareConnected whether one of them is configured as kind {@code middleware}
     */
    public record TrafficSensors(List<String> connectedProviders, boolean hasConnectedSensor, boolean middlewareConnected) {
    }
}
