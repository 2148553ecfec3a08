package dev.visibility.actions.recommendations;

import java.util.Map;

import dev.visibility.platform.events.StringProducer;
import dev.visibility.platform.events.StringRecordListeners;
import dev.visibility.platform.events.Topics;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.kafka.autoconfigure.ConcurrentKafkaListenerContainerFactoryConfigurer;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * The listener container of {@code recommendations} (the platform's {@link StringRecordListeners}):
 * offsets committed after the record's transaction, up to 5 retries in place (0.5 s doubling to
 * 8 s), then the record goes unchanged to {@code recommendations.DLT} and the partition moves on.
 * An unusable record skips the retries.
 * A failure of the database or the broker is retried for as long as it lasts and never
 * dead-lettered (the platform's {@code TransientFailures}); the bounded retries below are for other
 * failures.
 */
@Configuration(proxyBeanMethods = false)
public class RecommendationKafkaConfiguration {

    static final String CONTAINER_FACTORY = "recommendationsListenerContainerFactory";
    public static final String DEAD_LETTER_TOPIC = StringRecordListeners.deadLetterTopic(Topics.RECOMMENDATIONS);

    /** Dead letters, and the local demo's recommendations, byte for byte. */
    @Bean
    StringProducer recommendationsStringProducer(KafkaProperties properties) {
        return new StringProducer(properties);
    }

    @Bean(CONTAINER_FACTORY)
    ConcurrentKafkaListenerContainerFactory<Object, Object> recommendationsListenerContainerFactory(
            ConcurrentKafkaListenerContainerFactoryConfigurer configurer, KafkaProperties properties,
            StringProducer producer) {
        return StringRecordListeners.containerFactory(configurer, properties, producer,
                new StringRecordListeners.Retries(5, 500, 8_000), Map.of(), UnusableRecommendation.class);
    }

    @Bean
    @ConditionalOnProperty(prefix = "suite.kafka", name = "create-topics", havingValue = "true", matchIfMissing = true)
    KafkaAdmin.NewTopics recommendationsDeadLetterTopic(@Value("${suite.kafka.partitions:3}") int partitions,
            @Value("${suite.kafka.replication-factor:1}") short replicationFactor) {
        return StringRecordListeners.deadLetterTopics(partitions, replicationFactor, Topics.RECOMMENDATIONS);
    }
}
