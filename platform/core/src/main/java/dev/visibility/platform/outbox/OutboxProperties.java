package dev.visibility.platform.outbox;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;

/**
 * @param enabled       whether this instance runs the relay (several replicas may; rows are locked with SKIP LOCKED)
 * @param pollInterval  how often the relay looks for unsent rows while database wake-ups do not arrive
 * @param idlePollInterval how often it looks while they do (each committed outbox insert wakes it at once)
 * @param batchSize     rows published per transaction
 * @param sendTimeout   how long the relay waits for the broker's acknowledgement of a batch
 * @param retention     how long sent rows are kept before they are deleted
 * @param maxAttempts   how many rounds a row may fail with an error that is not the broker's outage
 *                      (its topic never appears in the metadata, an unclassified refusal) while the
 *                      broker acknowledges other rows, before it is parked in {@code outbox_dead_letters}
 */
@ConfigurationProperties("suite.outbox")
public record OutboxProperties(Boolean enabled, Duration pollInterval, Duration idlePollInterval, Integer batchSize,
        Duration sendTimeout, Duration retention, Integer maxAttempts) {

    public OutboxProperties(Boolean enabled, Duration pollInterval, Duration idlePollInterval, Integer batchSize,
            Duration sendTimeout, Duration retention) {
        this(enabled, pollInterval, idlePollInterval, batchSize, sendTimeout, retention, null);
    }

    @ConstructorBinding
    public OutboxProperties {
        enabled = enabled == null || enabled;
        pollInterval = pollInterval == null ? Duration.ofMillis(100) : pollInterval;
        idlePollInterval = idlePollInterval == null ? Duration.ofSeconds(1) : idlePollInterval;
        batchSize = batchSize == null ? 200 : batchSize;
        sendTimeout = sendTimeout == null ? Duration.ofSeconds(30) : sendTimeout;
        retention = retention == null ? Duration.ofDays(1) : retention;
        maxAttempts = maxAttempts == null ? 5 : maxAttempts;
    }
}
