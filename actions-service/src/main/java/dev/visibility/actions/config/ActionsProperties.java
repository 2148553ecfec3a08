package dev.visibility.actions.config;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * @param minReach           searches per month below which an opportunity is not ranked (percentileStatus insufficient_reach)
 * @param rankInterval       the least time between two recomputations of pending portfolio ranks and percentile
 *                           pools (a change wakes the recomputation at once; changes within this time share one)
 * @param rankIdleInterval   how often pending ranks are looked for without a wake-up (a safety net)
 * @param ingestBatch        recommendations records applied in one transaction at most (records per poll)
 * @param ingestTimeout      how long one poll's recommendations records may take to apply before they are retried
 * @param countCompactionInterval how often the count deltas of E3's totalCount are summed up (V3__action_counts.sql)
 * @param parseCacheChars    characters of stored opportunity and context JSON whose parsed form is kept in memory
 *                           (ActionRepository; the parsed records take about twice that many bytes again)
 * @param listCacheChars     characters of E3 pages kept rendered (ActionListPages; a character is a byte of heap,
 *                           two for text outside Latin-1); 0 keeps none
 */
@ConfigurationProperties("suite.actions")
public record ActionsProperties(Double minReach, Duration rankInterval, Duration rankIdleInterval,
        Integer ingestBatch, Duration ingestTimeout, Duration countCompactionInterval, Long parseCacheChars,
        Long listCacheChars) {

    public ActionsProperties {
        minReach = minReach == null ? 10.0 : minReach;
        rankInterval = rankInterval == null ? Duration.ofMillis(200) : rankInterval;
        rankIdleInterval = rankIdleInterval == null ? Duration.ofSeconds(5) : rankIdleInterval;
        ingestBatch = ingestBatch == null ? 50 : ingestBatch;
        ingestTimeout = ingestTimeout == null ? Duration.ofSeconds(60) : ingestTimeout;
        countCompactionInterval = countCompactionInterval == null ? Duration.ofSeconds(10) : countCompactionInterval;
        parseCacheChars = parseCacheChars == null ? 4_000_000L : parseCacheChars;
        listCacheChars = listCacheChars == null ? 8_000_000L : listCacheChars;
    }
}
