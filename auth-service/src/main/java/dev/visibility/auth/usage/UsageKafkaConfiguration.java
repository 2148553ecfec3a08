package dev.visibility.auth.usage;

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
 * The listener container of {@code usage.requests}: String values (parsed by the listener, so a
 * malformed record is one clear failure), retries with bounded exponential back-off, then the
 * record goes unchanged to {@code usage.requests.DLT} and the partition moves on.
 */
@Configuration(proxyBeanMethods = false)
class UsageKafkaConfiguration {

    static final String CONTAINER_FACTORY = "usageListenerContainerFactory";
    static final String DEAD_LETTER_TOPIC = Topics.USAGE_REQUESTS + ".DLT";

    /** Publishes dead letters byte for byte; not a KafkaTemplate bean, so Boot's own template stays as it is. */
    static final class DeadLetterPublisher implements DisposableBean {

        private final DefaultKafkaProducerFactory<String, String> producers;
        private final KafkaTemplate<String, String> template;

        DeadLetterPublisher(KafkaProperties properties) {
            Map<String, Object> config = new HashMap<>(properties.buildProducerProperties());
            config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
            config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
            this.producers = new DefaultKafkaProducerFactory<>(config);
            this.template = new KafkaTemplate<>(producers);
        }

        @Override
        public void destroy() {
            producers.destroy();
        }
    }

    @Bean
    DeadLetterPublisher usageDeadLetterPublisher(KafkaProperties properties) {
        return new DeadLetterPublisher(properties);
    }

    @Bean(CONTAINER_FACTORY)
    ConcurrentKafkaListenerContainerFactory<Object, Object> usageListenerContainerFactory(
            ConcurrentKafkaListenerContainerFactoryConfigurer configurer, KafkaProperties properties,
            DeadLetterPublisher deadLetters) {
        Map<String, Object> config = new HashMap<>(properties.buildConsumerProperties());
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        ConcurrentKafkaListenerContainerFactory<Object, Object> factory = new ConcurrentKafkaListenerContainerFactory<>();
        configurer.configure(factory, new DefaultKafkaConsumerFactory<>(config));

        ExponentialBackOffWithMaxRetries backOff = new ExponentialBackOffWithMaxRetries(6);
        backOff.setInitialInterval(500);
        backOff.setMultiplier(2.0);
        backOff.setMaxInterval(10_000);
        DeadLetterPublishingRecoverer recoverer = new DeadLetterPublishingRecoverer(deadLetters.template,
                (record, failure) -> new TopicPartition(DEAD_LETTER_TOPIC, -1));
        DefaultErrorHandler errorHandler = new DefaultErrorHandler(recoverer, backOff);
        errorHandler.addNotRetryableExceptions(UnusableUsageRecord.class);
        factory.setCommonErrorHandler(errorHandler);
        return factory;
    }

    @Bean
    @ConditionalOnProperty(prefix = "suite.kafka", name = "create-topics", havingValue = "true", matchIfMissing = true)
    KafkaAdmin.NewTopics usageDeadLetterTopic(@Value("${suite.kafka.partitions:3}") int partitions,
            @Value("${suite.kafka.replication-factor:1}") short replicationFactor) {
        return new KafkaAdmin.NewTopics(TopicBuilder.name(DEAD_LETTER_TOPIC).partitions(partitions)
                .replicas(replicationFactor).build());
    }
}
