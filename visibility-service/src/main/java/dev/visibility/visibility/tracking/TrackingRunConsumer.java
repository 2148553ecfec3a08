package dev.visibility.visibility.tracking;

import dev.visibility.platform.consumer.TopicConsumer;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.events.TrackingRunCompleted;
import dev.visibility.visibility.config.VisibilityProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Consumes {@code tracking.runs} through the platform's {@link TopicConsumer}: the platform reads
 * and validates each record ({@link TrackingRunCompleted#validate()}); {@link TrackingRunIngestion}
 * applies it in one database transaction (claim of its eventId, the run, its responses, the outbox
 * events), and the offset is committed after that. A record that can never apply goes to
 * {@code tracking.runs.DLT} at once; while the database is unavailable the record is retried, never
 * dead-lettered.
 */
@Configuration(proxyBeanMethods = false)
class TrackingRunConsumer {

    @Bean
    TopicConsumer<TrackingRunCompleted> trackingRunsConsumer(TrackingRunIngestion ingestion, VisibilityProperties properties) {
        return TopicConsumer.of(Topics.TRACKING_RUNS, TrackingRunCompleted.class, ingestion::ingest)
                .timeout(properties.ingestTimeout())
                // a record carries up to 5,000 samples: fewer per poll keeps a poll well inside max.poll.interval
                .maxPollRecords(50);
    }
}
