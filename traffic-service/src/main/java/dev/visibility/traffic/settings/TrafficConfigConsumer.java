package dev.visibility.traffic.settings;

import dev.visibility.platform.consumer.TopicConsumer;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.events.TrafficConfigured;
import dev.visibility.traffic.config.TrafficProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Consumes {@code traffic.config}: a project's whole configuration, the latest configuredAt wins ({@link ConfigIngestion}). */
@Configuration(proxyBeanMethods = false)
class TrafficConfigConsumer {

    @Bean
    TopicConsumer<TrafficConfigured> trafficConfig(ConfigIngestion ingestion, TrafficProperties properties) {
        return TopicConsumer.of(Topics.TRAFFIC_CONFIG, TrafficConfigured.class, ingestion::apply)
                .idempotent("traffic-service.traffic-config")
                .timeout(properties.ingestTimeout());
    }
}
