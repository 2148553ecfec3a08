package dev.visibility.traffic.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** The service's settings: the documented defaults, and a start refused for a value it cannot work with. */
class TrafficPropertiesTest {

    @Test
    void unsetSettingsTakeTheDocumentedDefaults() {
        TrafficProperties properties = new TrafficProperties(null, null, null, null, null, null, null, null, null, null);

        assertThat(properties.defaultFreshnessWindow()).isEqualTo(Duration.ofHours(24));
        assertThat(properties.materializeInterval()).isEqualTo(Duration.ofMinutes(15));
        assertThat(properties.retentionSweep()).isEqualTo(Duration.ofHours(1));
        assertThat(properties.hitsPollRecords()).isEqualTo(5000);
        assertThat(properties.hitsConcurrency()).isEqualTo(3);
        assertThat(properties.ingestTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(properties.relevantMinRequests()).isEqualTo(3);
        assertThat(properties.hitsGather()).isEqualTo(Duration.ofMillis(200));
        // hit_claims kept as long as the platform's processed_events
        assertThat(properties.claimRetention()).isNull();
    }

    @Test
    void theClaimRetentionIsPositive() {
        assertThat(new TrafficProperties(null, null, null, null, null, null, null, null, null, Duration.ofDays(3)).claimRetention())
                .isEqualTo(Duration.ofDays(3));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new TrafficProperties(null, null, null, null, null, null, null, null, null, Duration.ZERO))
                .withMessage("suite.traffic.claim-retention must be positive");
    }

    @Test
    void aBatchIsOneToTwentyThousandHits() {
        assertThat(withPollRecords(1).hitsPollRecords()).isEqualTo(1);
        assertThat(withPollRecords(20_000).hitsPollRecords()).isEqualTo(20_000);
        assertThatIllegalArgumentException().isThrownBy(() -> withPollRecords(0))
                .withMessage("suite.traffic.hits-poll-records must be 1 to 20000");
        assertThatIllegalArgumentException().isThrownBy(() -> withPollRecords(20_001))
                .withMessage("suite.traffic.hits-poll-records must be 1 to 20000");
    }

    @Test
    void intervalsAndTimeoutsArePositiveAndCountsAtLeastOne() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new TrafficProperties(Duration.ZERO, null, null, null, null, null, null, null, null, null))
                .withMessage("suite.traffic.default-freshness-window must be positive");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new TrafficProperties(null, Duration.ofSeconds(-1), null, null, null, null, null, null, null, null))
                .withMessage("suite.traffic.materialize-interval must be positive");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new TrafficProperties(null, null, Duration.ZERO, null, null, null, null, null, null, null))
                .withMessage("suite.traffic.retention-sweep must be positive");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new TrafficProperties(null, null, null, null, null, Duration.ZERO, null, null, null, null))
                .withMessage("suite.traffic.ingest-timeout must be positive");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new TrafficProperties(null, null, null, null, 0, null, null, null, null, null))
                .withMessage("suite.traffic.hits-concurrency must be at least 1");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new TrafficProperties(null, null, null, null, null, null, 0, null, null, null))
                .withMessage("suite.traffic.relevant-min-requests must be at least 1");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new TrafficProperties(null, null, null, null, null, null, null, Duration.ofMillis(-1), null, null))
                .withMessage("suite.traffic.hits-gather must not be negative");
        assertThat(new TrafficProperties(null, null, null, null, null, null, null, Duration.ZERO, null, null).hitsGather())
                .isEqualTo(Duration.ZERO);
    }

    @Test
    void theSessionCacheIsNoneOrAPowerOfTwoOfSlots() {
        assertThat(new TrafficProperties(null, null, null, null, null, null, null, null, null, null).sessionCacheSlots())
                .isEqualTo(1 << 19);
        assertThat(new TrafficProperties(null, null, null, null, null, null, null, null, 0, null).sessionCacheSlots()).isZero();
        assertThat(new TrafficProperties(null, null, null, null, null, null, null, null, 1 << 24, null).sessionCacheSlots())
                .isEqualTo(1 << 24);
        for (int slots : new int[] {-1, 1000, 1 << 25}) {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> new TrafficProperties(null, null, null, null, null, null, null, null, slots, null))
                    .withMessage("suite.traffic.session-cache-slots must be 0 or a power of two up to 16777216");
        }
    }

    private static TrafficProperties withPollRecords(int records) {
        return new TrafficProperties(null, null, null, records, null, null, null, null, null, null);
    }
}
