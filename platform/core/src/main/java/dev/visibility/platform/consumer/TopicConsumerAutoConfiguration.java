package dev.visibility.platform.consumer;

import java.util.List;

import dev.visibility.platform.events.StringProducer;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.outbox.OutboxAutoConfiguration;
import dev.visibility.platform.outbox.ProcessedEvents;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import org.apache.kafka.clients.admin.NewTopic;
import org.hibernate.validator.messageinterpolation.ParameterMessageInterpolator;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.kafka.autoconfigure.ConcurrentKafkaListenerContainerFactoryConfigurer;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.boot.r2dbc.autoconfigure.R2dbcTransactionManagerAutoConfiguration;
import org.springframework.boot.validation.autoconfigure.ValidationAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.transaction.ReactiveTransactionManager;
import tools.jackson.databind.ObjectMapper;

/**
 * Runs a listener container for every {@link TopicConsumer} bean of a service, declares the
 * dead-letter topic {@code <topic>.DLT} of each, and provides the service's {@link StringProducer}
 * (dead letters, records a service serialized itself) unless the service declares its own.
 */
@AutoConfiguration(after = {KafkaAutoConfiguration.class, OutboxAutoConfiguration.class,
        ValidationAutoConfiguration.class, R2dbcTransactionManagerAutoConfiguration.class})
@ConditionalOnClass(ConcurrentKafkaListenerContainerFactory.class)
@ConditionalOnBean(TopicConsumer.class)
public class TopicConsumerAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    StringProducer stringProducer(KafkaProperties properties) {
        return new StringProducer(properties);
    }

    @Bean
    TopicConsumers topicConsumers(List<TopicConsumer<?>> consumers,
            ConcurrentKafkaListenerContainerFactoryConfigurer configurer, KafkaProperties properties,
            StringProducer producer, ObjectMapper mapper, ObjectProvider<Validator> validator,
            ObjectProvider<ProcessedEvents> processed, ObjectProvider<ReactiveTransactionManager> transactions,
            @Value("${suite.consumer.transient-max-interval:30s}") java.time.Duration transientMaxInterval,
            @Value("${suite.consumer.unexpected-retries:6}") int unexpectedRetries) {
        TopicConsumers.Retries retries = new TopicConsumers.Retries(500, transientMaxInterval.toMillis(),
                unexpectedRetries, 10_000);
        return new TopicConsumers(consumers, configurer, properties, producer, mapper,
                validator.getIfUnique(TopicConsumerAutoConfiguration::defaultValidator), processed.getIfUnique(),
                transactions.getIfUnique(), retries);
    }

    @Bean
    @ConditionalOnProperty(prefix = "suite.kafka", name = "create-topics", havingValue = "true", matchIfMissing = true)
    KafkaAdmin.NewTopics topicConsumerDeadLetterTopics(List<TopicConsumer<?>> consumers, Environment environment,
            @Value("${suite.kafka.replication-factor:1}") short replicationFactor) {
        // as many partitions as the topic they come from
        return new KafkaAdmin.NewTopics(consumers.stream()
                .map(TopicConsumer::topic)
                .distinct()
                .map(topic -> TopicBuilder.name(DeadLetters.topic(topic))
                        .partitions(Topics.partitions(environment, topic))
                        .replicas(replicationFactor).build())
                .toArray(NewTopic[]::new));
    }

    private static Validator defaultValidator() {
        return Validation.byDefaultProvider().configure().messageInterpolator(new ParameterMessageInterpolator())
                .buildValidatorFactory().getValidator();
    }
}
