package dev.visibility.actions.recommendations;

import java.util.HashMap;
import java.util.Map;

import dev.visibility.platform.events.Topics;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.kafka.autoconfigure.ConcurrentKafkaListenerContainerFactoryConfigurer;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.support.ExponentialBackOffWithMaxRetries;

/**
 * The listener container of {@code recommendations}: String values (parsed by the listener, so a
 * malformed record is one clear failure), offsets committed after the record's transaction,
 * retries with bounded exponential back-off, then the record goes unchanged to
 * {@code recommendations.DLT} and the partition moves on. An unusable record skips the retries.
 */
@Configuration(proxyBeanMethods = false)
public class RecommendationKafkaConfiguration {

    static final String CONTAINER_FACTORY = "recommendationsListenerContainerFactory";
    public static final String DEAD_LETTER_TOPIC = Topics.RECOMMENDATIONS + ".DLT";

    /**
     * Publishes String records byte for byte (dead letters, and the local demo's recommendations);
     * not a KafkaTemplate bean, so Boot's own JSON template stays as it is.
     */
    public static final class StringPublisher implements DisposableBean {

        private final DefaultKafkaProducerFactory<String, String> producers;
        private final KafkaTemplate<String, String> template;

        StringPublisher(KafkaProperties properties) {
            Map<String, Object> config = new HashMap<>(properties.buildProducerProperties());
            config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
            config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
            this.producers = new DefaultKafkaProducerFactory<>(config);
            this.template = new KafkaTemplate<>(producers);
        }

        public KafkaTemplate<String, String> template() {
            return template;
        }

        @Override
        public void destroy() {
            producers.destroy();
        }
    }

    @Bean
    StringPublisher recommendationsStringPublisher(KafkaProperties properties) {
        return new StringPublisher(properties);
    }

    @Bean(CONTAINER_FACTORY)
    ConcurrentKafkaListenerContainerFactory<Object, Object> recommendationsListenerContainerFactory(
            ConcurrentKafkaListenerContainerFactoryConfigurer configurer, KafkaProperties properties,
            StringPublisher publisher) {
        Map<String, Object> config = new HashMap<>(properties.buildConsumerProperties());
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        ConcurrentKafkaListenerContainerFactory<Object, Object> factory = new ConcurrentKafkaListenerContainerFactory<>();
        configurer.configure(factory, new DefaultKafkaConsumerFactory<>(config));

        ExponentialBackOffWithMaxRetries backOff = new ExponentialBackOffWithMaxRetries(5);
        backOff.setInitialInterval(500);
        backOff.setMultiplier(2.0);
        backOff.setMaxInterval(8_000);
        DeadLetterPublishingRecoverer recoverer = new DeadLetterPublishingRecoverer(publisher.template(),
                (record, failure) -> new TopicPartition(DEAD_LETTER_TOPIC, -1));
        DefaultErrorHandler errorHandler = new DefaultErrorHandler(recoverer, backOff);
        errorHandler.addNotRetryableExceptions(UnusableRecommendation.class);
        factory.setCommonErrorHandler(errorHandler);
        return factory;
    }

    @Bean
    @ConditionalOnProperty(prefix = "suite.kafka", name = "create-topics", havingValue = "true", matchIfMissing = true)
    KafkaAdmin.NewTopics recommendationsDeadLetterTopic(@Value("${suite.kafka.partitions:3}") int partitions,
            @Value("${suite.kafka.replication-factor:1}") short replicationFactor) {
        return new KafkaAdmin.NewTopics(TopicBuilder.name(DEAD_LETTER_TOPIC).partitions(partitions)
                .replicas(replicationFactor).build());
    }
}
