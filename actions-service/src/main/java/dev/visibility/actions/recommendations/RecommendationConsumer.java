package dev.visibility.actions.recommendations;

import dev.visibility.actions.config.ActionsProperties;
import dev.visibility.platform.consumer.TopicConsumer;
import dev.visibility.platform.events.Topics;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Consumes {@code recommendations} through the platform's batch {@link TopicConsumer}: the platform
 * reads and validates each record of a poll ({@link RecommendationCandidate#validate()}), claims
 * their eventIds, and {@link RecommendationIngestion#ingestAll} applies those not applied before in
 * the same database transaction (rows, history, outbox events, record after record); the offsets
 * are committed after that. A producer publishes a project's recommendations as a set after each
 * run, so a poll's records share one commit instead of one each. A record that can never apply goes
 * to {@code recommendations.DLT} at once; while the database is unavailable the poll is retried,
 * never dead-lettered; a poll that keeps failing otherwise is applied one record at a time, and only
 * the record that cannot apply is dead-lettered.
 */
@Configuration(proxyBeanMethods = false)
class RecommendationConsumer {

    @Bean
    TopicConsumer<RecommendationCandidate> recommendationsConsumer(RecommendationIngestion ingestion,
            ActionsProperties properties) {
        return TopicConsumer.batch(Topics.RECOMMENDATIONS, RecommendationCandidate.class, ingestion::ingestAll)
                .idempotent(RecommendationIngestion.CONSUMER)
                .maxPollRecords(properties.ingestBatch())
                .timeout(properties.ingestTimeout());
    }
}
