package dev.visibility.traffic.config;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * @param defaultFreshnessWindow a sensor source is active while its last accepted hit is at most this
 *                               old, unless the project's configuration gives the source its own window
 * @param materializeInterval    how often E11's 404 clusters are recomputed (also once at start)
 * @param retentionSweep         how often rollups older than the longest window are removed (also once at start)
 * @param hitsPollRecords        traffic.hits records per poll, applied as one batch
 * @param hitsConcurrency        traffic.hits consumers per instance (at most one per partition is busy)
 * @param ingestTimeout          how long applying one batch (or one record of the other topics) may take
 * @param relevantMinRequests    E11: a content-intent cluster requested at least this often in the window is relevant
 * @param hitsGather             how long the broker may hold a traffic.hits fetch to gather a batch of
 *                               {@link #HITS_GATHER_BYTES} (a hit is visible that much later at most)
 */
@ConfigurationProperties("suite.traffic")
public record TrafficProperties(Duration defaultFreshnessWindow, Duration materializeInterval, Duration retentionSweep,
        Integer hitsPollRecords, Integer hitsConcurrency, Duration ingestTimeout, Integer relevantMinRequests,
        Duration hitsGather) {

    /** A traffic.hits batch the broker gathers: about 1 MiB of the log (several thousand hits). */
    public static final int HITS_GATHER_BYTES = 1024 * 1024;

    public TrafficProperties {
        defaultFreshnessWindow = defaultFreshnessWindow == null ? Duration.ofHours(24) : defaultFreshnessWindow;
        materializeInterval = materializeInterval == null ? Duration.ofMinutes(15) : materializeInterval;
        retentionSweep = retentionSweep == null ? Duration.ofHours(1) : retentionSweep;
        hitsPollRecords = hitsPollRecords == null ? 5000 : hitsPollRecords;
        hitsConcurrency = hitsConcurrency == null ? 3 : hitsConcurrency;
        ingestTimeout = ingestTimeout == null ? Duration.ofSeconds(60) : ingestTimeout;
        relevantMinRequests = relevantMinRequests == null ? 3 : relevantMinRequests;
        hitsGather = hitsGather == null ? Duration.ofMillis(200) : hitsGather;
    }
}
