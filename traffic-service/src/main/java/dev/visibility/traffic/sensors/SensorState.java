package dev.visibility.traffic.sensors;

import java.time.Instant;
import java.util.List;

/**
 * {@code sensors} of E4 (spec 2.6): the project's sensor sources, project-wide (E4's filters never
 * narrow it), evaluated at {@code asOf}.
 */
public record SensorState(Instant asOf, List<Source> sources) {

    public static final String ACTIVE = "active";
    public static final String STALE = "stale";
    public static final String AWAITING_FIRST_HIT = "awaiting_first_hit";

    /**
     * @param state                 {@code active} while the last accepted hit is at most {@code freshnessWindowHours}
     *                              old, {@code stale} after that, {@code awaiting_first_hit} before any
     * @param lastAcceptedAt        observedAt of the source's latest accepted hit (null before any)
     * @param freshnessWindowHours  the configured window, else the service's default
     * @param observedHostnames     the hostnames the source sent hits for, with the latest of each
     * @param configuredDomains     the project domains the configuration set the source up for
     */
    public record Source(String source, String state, Instant lastAcceptedAt, Number freshnessWindowHours,
            List<Hostname> observedHostnames, List<String> configuredDomains) {

        public boolean active() {
            return ACTIVE.equals(state);
        }
    }

    public record Hostname(String hostname, Instant lastAcceptedAt) {
    }
}
