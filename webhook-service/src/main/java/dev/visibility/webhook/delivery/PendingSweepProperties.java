package dev.visibility.webhook.delivery;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The sweep of deliveries left {@code pending} (issue 22).
 *
 * @param interval   how often the sweep runs
 * @param stuckAfter how long a pending delivery may go without an attempt (or a previous requeue)
 *                   before it is queued again; longer than a whole retry chain takes normally
 * @param batch      deliveries requeued per transaction
 */
@ConfigurationProperties("suite.webhook.pending-sweep")
public record PendingSweepProperties(Duration interval, Duration stuckAfter, Integer batch) {

    public PendingSweepProperties {
        interval = interval == null ? Duration.ofMinutes(1) : interval;
        stuckAfter = stuckAfter == null ? Duration.ofMinutes(15) : stuckAfter;
        batch = batch == null ? 500 : batch;
    }
}
