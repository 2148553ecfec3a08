package dev.visibility.traffic.hits;

import dev.visibility.platform.consumer.TopicConsumer;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.events.TrafficHitObserved;
import dev.visibility.traffic.config.TrafficProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Consumes {@code traffic.hits} in batches through the platform's {@link TopicConsumer}: a poll's
 * valid hits are applied with one statement ({@link HitIngestion}) in the transaction that claims
 * their eventIds (a hit delivered again counts once); malformed hits go to {@code traffic.hits.DLT}
 * with their reason after the rest of the batch was applied.
 */
@Configuration(proxyBeanMethods = false)
class TrafficHitsConsumer {

    @Bean
    TopicConsumer<TrafficHitObserved> trafficHits(HitIngestion ingestion, TrafficProperties properties) {
        return TopicConsumer.batch(Topics.TRAFFIC_HITS, TrafficHitObserved.class, ingestion::apply)
                .idempotent("traffic-service.traffic-hits")
                .maxPollRecords(properties.hitsPollRecords())
                .concurrency(properties.hitsConcurrency())
                .timeout(properties.ingestTimeout());
    }
}
