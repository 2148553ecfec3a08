package dev.visibility.visibility.config;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * @param responseRetention how long an answer text is retained after its execution completed,
 *                          when the tracking run does not say ({@code retainUntil}); default 90 days
 * @param retentionSweep    how often expired answer texts are cleared from the database
 * @param ingestTimeout     how long applying one Kafka record may take before it is retried
 */
@ConfigurationProperties("suite.visibility")
public record VisibilityProperties(Duration responseRetention, Duration retentionSweep, Duration ingestTimeout) {

    public VisibilityProperties {
        responseRetention = responseRetention == null ? Duration.ofDays(90) : responseRetention;
        retentionSweep = retentionSweep == null ? Duration.ofMinutes(10) : retentionSweep;
        ingestTimeout = ingestTimeout == null ? Duration.ofSeconds(60) : ingestTimeout;
    }
}
