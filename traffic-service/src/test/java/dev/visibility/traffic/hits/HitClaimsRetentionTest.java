package dev.visibility.traffic.hits;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import dev.visibility.platform.outbox.ClaimTable;
import dev.visibility.traffic.config.TrafficProperties;
import org.junit.jupiter.api.Test;

/**
 * hit_claims is swept after {@code suite.traffic.claim-retention} when it is set, else as the platform's
 * processed_events ({@code PlatformRetentionIntegrationTest} sweeps a claim table by either against PostgreSQL).
 */
class HitClaimsRetentionTest {

    private static final Duration PROCESSED_EVENTS = Duration.ofDays(14);

    @Test
    void hitClaimsAreKeptAsLongAsProcessedEventsUnlessTheServiceSaysOtherwise() {
        ClaimTable unset = new TrafficHitsConsumer().hitClaims(properties(null));
        assertThat(unset.name()).isEqualTo("hit_claims");
        assertThat(unset.retentionOr(PROCESSED_EVENTS)).isEqualTo(PROCESSED_EVENTS);

        ClaimTable twoDays = new TrafficHitsConsumer().hitClaims(properties(Duration.ofDays(2)));
        assertThat(twoDays.retentionOr(PROCESSED_EVENTS)).isEqualTo(Duration.ofDays(2));
    }

    private static TrafficProperties properties(Duration claimRetention) {
        return new TrafficProperties(null, null, null, null, null, null, null, null, null, claimRetention);
    }
}
