package dev.visibility.actions.config;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * @param minReach           searches per month below which an opportunity is not ranked (percentileStatus insufficient_reach)
 * @param rankInterval       how often pending portfolio ranks and percentile pools are recomputed
 * @param ingestTimeout      how long one recommendations record may take to apply before it is retried
 * @param countCompactionInterval how often the count deltas of E3's totalCount are summed up (V3__action_counts.sql)
 */
@ConfigurationProperties("suite.actions")
public record ActionsProperties(Double minReach, Duration rankInterval, Duration ingestTimeout,
        Duration countCompactionInterval) {

    public ActionsProperties {
        minReach = minReach == null ? 10.0 : minReach;
        rankInterval = rankInterval == null ? Duration.ofMillis(200) : rankInterval;
        ingestTimeout = ingestTimeout == null ? Duration.ofSeconds(20) : ingestTimeout;
        countCompactionInterval = countCompactionInterval == null ? Duration.ofSeconds(10) : countCompactionInterval;
    }
}
