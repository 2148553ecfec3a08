package dev.visibility.webhook.delivery;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import dev.visibility.platform.consumer.ConsumedRecord;
import dev.visibility.platform.consumer.TopicConsumer;
import dev.visibility.platform.events.PublishedEvent;
import dev.visibility.platform.events.StringProducer;
import dev.visibility.platform.events.Topics;
import dev.visibility.webhook.config.WebhookProperties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.kafka.autoconfigure.ConcurrentKafkaListenerContainerFactoryConfigurer;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.retrytopic.RetryTopicConfiguration;
import org.springframework.kafka.retrytopic.RetryTopicConfigurationBuilder;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * The consumers of webhook-service and the retry topics of deliveries; offsets are committed after
 * a handler succeeded (or after a record was forwarded to its next topic): at-least-once.
 *
 * <ul>
 * <li>{@code public.events} (fan-out) and {@code webhook.deliveries} (first attempts): the
 * platform's batch consumers ({@link TopicConsumer#batch}). A record that does not match its
 * topic's schema goes unchanged to {@code <topic>.DLT}; a failure of the database or the broker is
 * retried without limit with the consumer paused (the partition waits, nothing is skipped).</li>
 * <li>{@code webhook.deliveries-retry-1} (attempt 2): spring-kafka non-blocking retries on to
 * {@code -retry-2} (attempt 3) and {@code -retry-3} (attempt 4), then
 * {@code webhook.deliveries.DLT}, whose handler marks the delivery failed. Each record waits in
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

    static final String RETRY_FACTORY = "retryListenerContainerFactory";

    /** Fan-out: public.events a poll at a time, as many consumers as configured. */
    @Bean
    TopicConsumer<PublishedEvent> publicEventsFanOut(PublicEventFanOut fanOut, WebhookProperties webhook) {
        // traced: each delivery keeps its event's trace context, which its attempts continue
        return gathering(TopicConsumer.tracedBatch(Topics.PUBLIC_EVENTS, PublishedEvent.class, fanOut::fanOutTraced)
                .concurrency(webhook.delivery().concurrency()), webhook);
    }

    /** First attempts: webhook.deliveries a batch at a time, one consumer per partition unless configured. */
    @Bean
    TopicConsumer<DeliveryRequested> firstAttempts(FirstAttemptListener listener, WebhookProperties webhook,
            Environment environment) {
        return gathering(TopicConsumer.batch(DeliveryTopics.FIRST, DeliveryRequested.class, listener::attemptFirst)
                .maxPollRecords(webhook.delivery().batchSize())
                .concurrency(deliveryConcurrency(webhook, environment))
                // a batch's attempts, each up to the delivery time-out, run side by side
                .timeout(Duration.ofMinutes(4)), webhook);
    }

    /**
     * The fan-out and the first attempts work a batch at a time (a statement, a send, a commit): without
     * gathering, a consumer that keeps up takes whatever arrived since its last fetch, a few records, and
     * the many small batches queue behind each other; gathered, batches grow with the load and a delivery
     * arrives sooner at moderate rates (bench/WebhookDeliveryBench.md, session 18: the median ~25 % sooner
     * at 2,500/s, the same CPU a delivery). A record waits at most {@code gather} longer; zero: no gathering.
     */
    static <T extends ConsumedRecord> TopicConsumer<T> gathering(
            TopicConsumer<T> consumer, WebhookProperties webhook) {
        return consumer.gather(WebhookProperties.Delivery.GATHER_BYTES, webhook.delivery().gather());
    }

    @Bean(RETRY_FACTORY)
    ConcurrentKafkaListenerContainerFactory<Object, Object> retryListenerContainerFactory(
            ConcurrentKafkaListenerContainerFactoryConfigurer configurer, KafkaProperties properties, WebhookProperties webhook,
            RetrySchedule schedule, Environment environment) {
        // one record at a time, each up to the time-out: few per poll keeps polls within max.poll.interval.ms.
        // The dead-letter topic's consumers, which never pause, get the configured wait back (DeliveryRetryTopics)
        ConcurrentKafkaListenerContainerFactory<Object, Object> factory = stringFactory(configurer, properties,
                Map.of(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, webhook.delivery().maxPollRecords(),
                        ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, retryFetchMaxWait(properties, schedule)));
        factory.setConcurrency(deliveryConcurrency(webhook, environment));
        return factory;
    }

    /**
     * How long a retry consumer's fetch may wait at the broker: the configured wait (Kafka's 500 ms unless
     * {@code spring.kafka.consumer.fetch-max-wait} is set), but never longer than the shortest delay before a retry.
     * A consumer that has just handed over a record not yet due has its next fetch already waiting at the broker;
     * the partition, paused until the record's due time and then resumed, can only be fetched again once that
     * fetch has returned. A wait no longer than the shortest delay has returned by then, so no retry comes late
     * (a consumer of several partitions: by at most the wait). A longer one set for every consumer (the local suite's
     * 5 s) would delay each retry by up to that; a short one makes the mostly idle retry consumers fetch that often
     * (10 times a second each at 100 ms). Production: 500 ms (delays of 8 s and more); the local suite: 800 ms (1 s
     * less 20 % jitter) instead of 500, a third fewer fetches at rest.
     */
    static int retryFetchMaxWait(KafkaProperties properties, RetrySchedule schedule) {
        Duration configured = properties.getConsumer().getFetchMaxWait();
        long wait = configured == null ? ConsumerConfig.DEFAULT_FETCH_MAX_WAIT_MS : configured.toMillis();
        long shortestDelay = schedule.shortestDelay().toMillis();
        return (int) Math.max(1, Math.min(wait, shortestDelay));
    }

    /**
     * Partitions of {@code webhook.deliveries} as the platform declares it (its per-topic count,
     * else the default count); the retry and dead-letter topics of deliveries get as many.
     */
    static int deliveryPartitions(Environment environment) {
        return Topics.partitions(environment, DeliveryTopics.FIRST);
    }

    /** Consumers per delivery topic: configured, else one per partition. */
    static int deliveryConcurrency(WebhookProperties webhook, Environment environment) {
        Integer configured = webhook.delivery().deliveryConcurrency();
        return configured != null ? configured : deliveryPartitions(environment);
    }

    @Bean
    RetryTopicConfiguration deliveryRetryTopicConfiguration(StringProducer producer, WebhookProperties webhook,
            RetrySchedule schedule, Environment environment,
            @Value("${suite.kafka.create-topics:true}") boolean createTopics,
            @Value("${suite.kafka.replication-factor:1}") short replicationFactor) {
        WebhookProperties.Delivery delivery = webhook.delivery();
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
                .create(producer.template());
    }

    /** A database outage during a retry: wait and try again, without limit, so that no record moves on unstored. */
    static BackOff storeUnavailableBackOff() {
        ExponentialBackOff backOff = new ExponentialBackOff(1_000, 2.0);
        backOff.setMaxInterval(30_000);
        return backOff;
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
        factory.getContainerProperties().setObservationEnabled(true);
        return factory;
    }
}
