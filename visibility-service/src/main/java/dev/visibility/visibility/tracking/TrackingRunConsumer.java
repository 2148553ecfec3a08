package dev.visibility.visibility.tracking;

import dev.visibility.platform.consumer.TopicConsumer;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.events.TrackingRunCompleted;
import dev.visibility.visibility.config.VisibilityProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Consumes {@code tracking.runs} through the platform's batch {@link TopicConsumer}: the platform
 * reads and validates each record of a poll ({@link TrackingRunCompleted#validate()}, an invalid one
 * goes to {@code tracking.runs.DLT} with its reason) and claims the valid ones' eventIds;
 * {@link TrackingRunIngestion} applies them in that database transaction (the runs, their responses,
 * the outbox events), and the offsets are committed after that. While the database is unavailable
 * the batch is retried, never dead-lettered; a batch that keeps failing otherwise is applied one run
 * at a time, and only the run that cannot apply is dead-lettered.
 */
@Configuration(proxyBeanMethods = false)
class TrackingRunConsumer {

    @Bean
    TopicConsumer<TrackingRunCompleted> trackingRunsConsumer(TrackingRunIngestion ingestion, VisibilityProperties properties) {
        // one transaction and a few statements per poll instead of several statements and a commit per
        // run (bench/TrackingRunBench.md); a poll is also bounded by the fetch size (1 MiB a partition)
        return TopicConsumer.tracedBatch(Topics.TRACKING_RUNS, TrackingRunCompleted.class, ingestion::ingestAll)
                .idempotent(TrackingRunIngestion.CONSUMER)
                .timeout(properties.ingestTimeout())
                // a record carries up to 5,000 samples: fewer per poll keeps a poll well inside max.poll.interval
                .maxPollRecords(50);
    }
}
