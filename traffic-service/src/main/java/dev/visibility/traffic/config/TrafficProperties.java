package dev.visibility.traffic.config;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * @param defaultFreshnessWindow a sensor source is active while its last accepted hit is at most this
 *                               old, unless the project's configuration gives the source its own window
 * @param materializeInterval    how often E11's 404 clusters are recomputed (also once at start)
 * @param retentionSweep         how often rollups older than the longest window are removed (also once at start)
 * @param hitsPollRecords        traffic.hits records per poll, applied as one batch: 1 to {@link #MAX_HITS_POLL_RECORDS}
 * @param hitsConcurrency        traffic.hits consumers per instance (at most one per partition is busy)
 * @param ingestTimeout          how long applying one batch (or one record of the other topics) may take
 * @param relevantMinRequests    E11: a content-intent cluster requested at least this often in the window is relevant
 * @param hitsGather             how long the broker may hold a traffic.hits fetch to gather a batch of
 *                               {@link #HITS_GATHER_BYTES} (a hit is visible that much later at most); zero: no
 *                               gathering (a fetch is answered when a hit comes; an idle consumer fetches every
 *                               {@code fetch.max.wait.ms})
 * @param sessionCacheSlots      session scopes whose committed last days the service remembers (16 bytes each),
 *                               so that a batch need not look up those it cannot move: 0 (none) or a power of two
 * @param claimRetention         how long the eventIds of applied hits are kept ({@code hit_claims}, one row of about
 *                               90 bytes a hit); null: as long as the platform's {@code suite.retention.processed-events}.
 *                               A hit delivered again after its claim was swept counts again, so keep it above
 *                               {@code traffic.hits}' {@code retention.ms} and the sensors' resend window
 */
@ConfigurationProperties("suite.traffic")
public record TrafficProperties(Duration defaultFreshnessWindow, Duration materializeInterval, Duration retentionSweep,
        Integer hitsPollRecords, Integer hitsConcurrency, Duration ingestTimeout, Integer relevantMinRequests,
        Duration hitsGather, Integer sessionCacheSlots, Duration claimRetention) {

    /** A traffic.hits batch the broker gathers: about 1 MiB of the log (several thousand hits). */
    public static final int HITS_GATHER_BYTES = 1024 * 1024;

    /**
     * The largest batch: the batch's write statement carries each of its arrays (five session scopes a hit)
     * as one parameter, and the service's heap holds the batch folded; a batch larger than this costs no
     * less a hit (bench/TrafficBench.md) and only makes each statement longer and larger.
     */
    public static final int MAX_HITS_POLL_RECORDS = 20_000;

    /** The largest session cache: 2^24 slots, 256 MiB. */
    public static final int MAX_SESSION_CACHE_SLOTS = 1 << 24;

    public TrafficProperties {
        defaultFreshnessWindow = defaultFreshnessWindow == null ? Duration.ofHours(24) : defaultFreshnessWindow;
        materializeInterval = materializeInterval == null ? Duration.ofMinutes(15) : materializeInterval;
        retentionSweep = retentionSweep == null ? Duration.ofHours(1) : retentionSweep;
        hitsPollRecords = hitsPollRecords == null ? 5000 : hitsPollRecords;
        hitsConcurrency = hitsConcurrency == null ? 3 : hitsConcurrency;
        ingestTimeout = ingestTimeout == null ? Duration.ofSeconds(60) : ingestTimeout;
        relevantMinRequests = relevantMinRequests == null ? 3 : relevantMinRequests;
        hitsGather = hitsGather == null ? Duration.ofMillis(200) : hitsGather;
        sessionCacheSlots = sessionCacheSlots == null ? 1 << 19 : sessionCacheSlots;
        positive("default-freshness-window", defaultFreshnessWindow);
        positive("materialize-interval", materializeInterval);
        positive("retention-sweep", retentionSweep);
        positive("ingest-timeout", ingestTimeout);
        if (claimRetention != null) {
            positive("claim-retention", claimRetention);
        }
        if (hitsGather.isNegative()) {
            throw new IllegalArgumentException("suite.traffic.hits-gather must not be negative");
        }
        if (hitsPollRecords < 1 || hitsPollRecords > MAX_HITS_POLL_RECORDS) {
            throw new IllegalArgumentException("suite.traffic.hits-poll-records must be 1 to " + MAX_HITS_POLL_RECORDS);
        }
        if (hitsConcurrency < 1) {
            throw new IllegalArgumentException("suite.traffic.hits-concurrency must be at least 1");
        }
        if (sessionCacheSlots < 0 || sessionCacheSlots > MAX_SESSION_CACHE_SLOTS || Integer.bitCount(sessionCacheSlots) > 1) {
            throw new IllegalArgumentException("suite.traffic.session-cache-slots must be 0 or a power of two up to "
                    + MAX_SESSION_CACHE_SLOTS);
        }
        if (relevantMinRequests < 1) {
            throw new IllegalArgumentException("suite.traffic.relevant-min-requests must be at least 1");
        }
    }

    private static void positive(String name, Duration value) {
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException("suite.traffic." + name + " must be positive");
        }
    }
}
