package dev.visibility.outcomes.config;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * @param ingestTimeout how long applying one Kafka record may take before it is retried
 * @param cursorTtl     how long an E2 cursor stays valid after it was issued (spec 8: about 48 hours)
 * @param measurementsPollRecords outcomes.measurements records per poll, applied as one batch
 */
@ConfigurationProperties("suite.outcomes")
public record OutcomesProperties(Duration ingestTimeout, Duration cursorTtl, Integer measurementsPollRecords) {

    public OutcomesProperties {
        ingestTimeout = ingestTimeout == null ? Duration.ofSeconds(30) : ingestTimeout;
        cursorTtl = cursorTtl == null ? Duration.ofHours(48) : cursorTtl;
        measurementsPollRecords = measurementsPollRecords == null ? 2000 : measurementsPollRecords;
    }
}
