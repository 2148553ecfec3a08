package dev.visibility.auth.usage;

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
 * The listener container of {@code usage.requests} (the platform's {@link StringRecordListeners}):
 * up to 6 retries in place (0.5 s doubling to 10 s), then the record goes unchanged to
 * {@code usage.requests.DLT} and the partition moves on. An unusable record skips the retries.
 * A failure of the database or the broker is retried for as long as it lasts and never
 * dead-lettered (the platform's {@code TransientFailures}); the bounded retries below are for other
 * failures.
 */
@Configuration(proxyBeanMethods = false)
class UsageKafkaConfiguration {

    static final String CONTAINER_FACTORY = "usageListenerContainerFactory";
    static final String DEAD_LETTER_TOPIC = StringRecordListeners.deadLetterTopic(Topics.USAGE_REQUESTS);

    /** Dead letters, byte for byte. */
    @Bean
    StringProducer usageDeadLetterProducer(KafkaProperties properties) {
        return new StringProducer(properties);
    }

    @Bean(CONTAINER_FACTORY)
    ConcurrentKafkaListenerContainerFactory<Object, Object> usageListenerContainerFactory(
            ConcurrentKafkaListenerContainerFactoryConfigurer configurer, KafkaProperties properties,
            StringProducer deadLetters) {
        return StringRecordListeners.containerFactory(configurer, properties, deadLetters,
                new StringRecordListeners.Retries(6, 500, 10_000), Map.of(), UnusableUsageRecord.class);
    }

    @Bean
    @ConditionalOnProperty(prefix = "suite.kafka", name = "create-topics", havingValue = "true", matchIfMissing = true)
    KafkaAdmin.NewTopics usageDeadLetterTopic(@Value("${suite.kafka.partitions:3}") int partitions,
            @Value("${suite.kafka.replication-factor:1}") short replicationFactor) {
        return StringRecordListeners.deadLetterTopics(partitions, replicationFactor, Topics.USAGE_REQUESTS);
    }
}
