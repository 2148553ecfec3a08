package dev.visibility.traffic.hits;

import dev.visibility.platform.consumer.TopicConsumer;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.events.TrafficHitObserved;
import dev.visibility.platform.events.TrafficHitQuickReader;
import dev.visibility.platform.outbox.ClaimTable;
import dev.visibility.traffic.config.TrafficProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Consumes {@code traffic.hits} in batches through the platform's {@link TopicConsumer}: a poll's
 * valid hits are applied with one statement ({@link HitIngestion}) in the transaction that claims
 * their eventIds (a hit delivered again counts once) in {@code hit_claims}, a claim table of the
 * service's own (migration V4); malformed hits go to {@code traffic.hits.DLT} with their reason
 * after the rest of the batch was applied. The hits in the sensors' common form are read in one pass
 * ({@link TrafficHitQuickReader}), the rest through the platform's full reading.
 */
@Configuration(proxyBeanMethods = false)
class TrafficHitsConsumer {

    /** Swept by the platform's retention after {@code suite.traffic.claim-retention}, else as processed_events is. */
    @Bean
    ClaimTable hitClaims(TrafficProperties properties) {
        return new ClaimTable("hit_claims", properties.claimRetention());
    }

    @Bean
    TopicConsumer<TrafficHitObserved> trafficHits(HitIngestion ingestion, TrafficProperties properties, ClaimTable hitClaims) {
        return TopicConsumer.batch(Topics.TRAFFIC_HITS, TrafficHitObserved.class, ingestion::apply)
                .idempotentIn(hitClaims)
                .quickReader(new TrafficHitQuickReader())
                .maxPollRecords(properties.hitsPollRecords())
                .concurrency(properties.hitsConcurrency())
                // batches of a few thousand hits rather than whatever arrived since the last fetch
                // (a batch costs per batch as much as per hit: bench/TrafficBench.md); zero: no gathering
                .gather(TrafficProperties.HITS_GATHER_BYTES, properties.hitsGather())
                .timeout(properties.ingestTimeout());
    }
}
