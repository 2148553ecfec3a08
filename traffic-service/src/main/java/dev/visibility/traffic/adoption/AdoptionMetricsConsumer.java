package dev.visibility.traffic.adoption;

import dev.visibility.platform.consumer.TopicConsumer;
import dev.visibility.platform.events.AdoptionMetricSampled;
import dev.visibility.platform.events.Topics;
import dev.visibility.traffic.config.TrafficProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Consumes {@code adoption.metrics} a poll at a time: each sample stored once per eventId, the poll's
 * samples with two statements in one transaction ({@link AdoptionIngestion}).
 */
@Configuration(proxyBeanMethods = false)
class AdoptionMetricsConsumer {

    @Bean
    TopicConsumer<AdoptionMetricSampled> adoptionMetrics(AdoptionIngestion ingestion, TrafficProperties properties) {
        return TopicConsumer.batch(Topics.ADOPTION_METRICS, AdoptionMetricSampled.class, ingestion::apply)
                .idempotent("traffic-service.adoption-metrics")
                .timeout(properties.ingestTimeout());
    }
}
