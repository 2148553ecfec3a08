package dev.visibility.webhook.delivery;

import java.util.HashMap;
import java.util.Map;

import dev.visibility.platform.events.Topics;
import dev.visibility.webhook.config.WebhookProperties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.kafka.autoconfigure.ConcurrentKafkaListenerContainerFactoryConfigurer;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.retrytopic.RetryTopicConfiguration;
import org.springframework.kafka.retrytopic.RetryTopicConfigurationBuilder;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * The listener containers of webhook-service and the retry topics of deliveries. All values are
 * Strings, parsed by the listeners; offsets are committed after a listener returns (or after a
 * record was forwarded to its next topic): at-least-once.
 *
 * <ul>
 * <li>{@code public.events} (fan-out) and {@code webhook.deliveries} (first attempts): batch
 * listeners. A record that is not usable goes unchanged to a dead-letter topic; a failure of the
 * database or the broker is retried in place without limit (the partition waits, nothing is
 * skipped).</li>
 * <li>{@code webhook.deliveries-retry-1} (attempt 2): spring-kafka non-blocking retries on to
 * {@code -retry-2} (attempt 3) and {@code -retry-3} (attempt 4), then
 * {@code webhook.deliveries-dlt}, whose handler marks the delivery failed. Each record waits in
 * its topic until its own due time ({@link RetrySchedule}, {@link DeliveryRetryTopics}).</li>
 * </ul>
 *
 * <p>Partitions: {@code webhook.deliveries} has as many as the platform declares for it
 * ({@code suite.kafka.topic-partitions.webhook.deliveries}, 6 by default, else
 * {@code suite.kafka.partitions}); its retry and dead-letter topics get the same number, and
 * records go to them by key (the webhook id), like the first-attempt topic, so that a topic with
 * another count (created earlier) is no problem. Each of those topics has
 * {@code delivery-concurrency} consumers per instance (default: one per partition), so that a
 * receiver that times out holds only its own partition.
 */
@Configuration(proxyBeanMethods = false)
class DeliveryKafkaConfiguration {

    static final String FAN_OUT_FACTORY = "publicEventsListenerContainerFactory";
    static final String FIRST_ATTEMPT_FACTORY = "firstAttemptListenerContainerFactory";
    static final String RETRY_FACTORY = "retryListenerContainerFactory";
    static final String PUBLIC_EVENTS_DEAD_LETTERS = Topics.PUBLIC_EVENTS + ".webhook-service.DLT";

    /** A producer of String values for deliveries, retries and dead letters; not a KafkaTemplate bean, so Boot's stays. */
    static final class StringRecords implements DisposableBean {

        private final DefaultKafkaProducerFactory<String, String> producers;
        final KafkaTemplate<String, String> template;

        StringRecords(KafkaProperties properties) {
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
    StringRecords webhookStringRecords(KafkaProperties properties) {
        return new StringRecords(properties);
    }

    @Bean(FAN_OUT_FACTORY)
    ConcurrentKafkaListenerContainerFactory<Object, Object> publicEventsListenerContainerFactory(
            ConcurrentKafkaListenerContainerFactoryConfigurer configurer, KafkaProperties properties, WebhookProperties webhook) {
        ConcurrentKafkaListenerContainerFactory<Object, Object> factory = batchFactory(configurer, properties, Map.of());
        factory.setConcurrency(webhook.delivery().concurrency());
        return factory;
    }

    @Bean(FIRST_ATTEMPT_FACTORY)
    ConcurrentKafkaListenerContainerFactory<Object, Object> firstAttemptListenerContainerFactory(
            ConcurrentKafkaListenerContainerFactoryConfigurer configurer, KafkaProperties properties, WebhookProperties webhook,
            Environment environment) {
        ConcurrentKafkaListenerContainerFactory<Object, Object> factory = batchFactory(configurer, properties,
                Map.of(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, webhook.delivery().batchSize()));
        factory.setConcurrency(deliveryConcurrency(webhook, environment));
        return factory;
    }

    @Bean(RETRY_FACTORY)
    ConcurrentKafkaListenerContainerFactory<Object, Object> retryListenerContainerFactory(
            ConcurrentKafkaListenerContainerFactoryConfigurer configurer, KafkaProperties properties, WebhookProperties webhook,
            Environment environment) {
        // one record at a time, each up to the time-out: few per poll keeps polls within max.poll.interval.ms.
        // With one consumer per partition (the default), a paused partition has no fetch in flight and the
        // next poll after its resumption fetches at once, so the default fetch wait stays (a short one made
        // the 24 mostly idle retry consumers fetch 10 times a second each)
        ConcurrentKafkaListenerContainerFactory<Object, Object> factory = stringFactory(configurer, properties,
                Map.of(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, webhook.delivery().maxPollRecords()));
        factory.setConcurrency(deliveryConcurrency(webhook, environment));
        return factory;
    }

    /**
     * Partitions of {@code webhook.deliveries} as the platform declares it (its per-topic count,
     * else the default count); the retry and dead-letter topics of deliveries get as many.
     */
    static int deliveryPartitions(Environment environment) {
        int partitions = environment.getProperty("suite.kafka.partitions", Integer.class, 3);
        return environment.getProperty("suite.kafka.topic-partitions." + DeliveryTopics.FIRST, Integer.class, partitions);
    }

    /** Consumers per delivery topic: configured, else one per partition. */
    static int deliveryConcurrency(WebhookProperties webhook, Environment environment) {
        Integer configured = webhook.delivery().deliveryConcurrency();
        return configured != null ? configured : deliveryPartitions(environment);
    }

    @Bean
    RetryTopicConfiguration deliveryRetryTopicConfiguration(StringRecords records, WebhookProperties webhook,
            Environment environment,
            @Value("${suite.kafka.create-topics:true}") boolean createTopics,
            @Value("${suite.kafka.replication-factor:1}") short replicationFactor) {
        WebhookProperties.Delivery delivery = webhook.delivery();
        RetrySchedule schedule = new RetrySchedule(delivery);
        return RetryTopicConfigurationBuilder.newInstance()
                .includeTopic(DeliveryTopics.RETRY_FIRST)
                .listenerFactory(RETRY_FACTORY)
                // attempts 2, 3 and 4; the topics' nominal delays (after attempts 2 and 3) are
                // replaced by each record's own due time, see DeliveryRetryTopics
                .maxAttempts(RetrySchedule.MAX_ATTEMPTS - 1)
                .exponentialBackoff(schedule.nominalDelay(2).toMillis(), 2.0, delivery.backoffMax().toMillis())
                .suffixTopicsWithIndexValues()
                .retryOn(DeliveryAttemptFailed.class)
                .traversingCauses()
                .dltHandlerMethod("deliveryRetryListener", "onDeadLetter")
                // the retry topics (attempts 3 and 4 make HTTP calls) and the dead-letter topic: as many
                // consumers and partitions as webhook.deliveries
                .concurrency(deliveryConcurrency(webhook, environment))
                .autoCreateTopics(createTopics, deliveryPartitions(environment), replicationFactor)
                .create(records.template);
    }

    @Bean
    @ConditionalOnProperty(prefix = "suite.kafka", name = "create-topics", havingValue = "true", matchIfMissing = true)
    KafkaAdmin.NewTopics publicEventsDeadLetterTopic(@Value("${suite.kafka.partitions:3}") int partitions,
            @Value("${suite.kafka.replication-factor:1}") short replicationFactor) {
        return new KafkaAdmin.NewTopics(TopicBuilder.name(PUBLIC_EVENTS_DEAD_LETTERS).partitions(partitions)
                .replicas(replicationFactor).build());
    }

    /** A database or broker outage: wait and try again, without limit, so that no record moves on unstored. */
    static BackOff storeUnavailableBackOff() {
        ExponentialBackOff backOff = new ExponentialBackOff(1_000, 2.0);
        backOff.setMaxInterval(30_000);
        return backOff;
    }

    private static ConcurrentKafkaListenerContainerFactory<Object, Object> batchFactory(
            ConcurrentKafkaListenerContainerFactoryConfigurer configurer, KafkaProperties properties,
            Map<String, Object> overrides) {
        ConcurrentKafkaListenerContainerFactory<Object, Object> factory = stringFactory(configurer, properties, overrides);
        factory.setBatchListener(true);
        // unusable records are parked by the listeners themselves; what is left is the database
        // or the broker being unavailable: the batch is tried again, without limit
        factory.setCommonErrorHandler(new DefaultErrorHandler(storeUnavailableBackOff()));
        return factory;
    }

    private static ConcurrentKafkaListenerContainerFactory<Object, Object> stringFactory(
            ConcurrentKafkaListenerContainerFactoryConfigurer configurer, KafkaProperties properties,
            Map<String, Object> overrides) {
        Map<String, Object> config = new HashMap<>(properties.buildConsumerProperties());
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.putAll(overrides);
        ConcurrentKafkaListenerContainerFactory<Object, Object> factory = new ConcurrentKafkaListenerContainerFactory<>();
        configurer.configure(factory, new DefaultKafkaConsumerFactory<>(config));
        return factory;
    }
}
