package dev.visibility.actions.recommendations;

import dev.visibility.actions.config.ActionsProperties;
import dev.visibility.platform.consumer.TopicConsumer;
import dev.visibility.platform.events.Topics;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Consumes {@code recommendations} through the platform's {@link TopicConsumer}: the platform reads
 * and validates each record ({@link RecommendationCandidate#validate()}); {@link RecommendationIngestion}
 * applies it in one database transaction (claim of its eventId, rows, history, outbox events), and
 * the offset is committed after that. A record that can never apply goes to
 * {@code recommendations.DLT} at once; while the database is unavailable the record is retried,
 * never dead-lettered.
 */
@Configuration(proxyBeanMethods = false)
class RecommendationConsumer {

    @Bean
    TopicConsumer<RecommendationCandidate> recommendationsConsumer(RecommendationIngestion ingestion,
            ActionsProperties properties) {
        return TopicConsumer.of(Topics.RECOMMENDATIONS, RecommendationCandidate.class, ingestion::ingest)
                .timeout(properties.ingestTimeout());
    }
}
