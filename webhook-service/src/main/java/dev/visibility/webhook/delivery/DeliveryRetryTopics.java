package dev.visibility.webhook.delivery;

import java.math.BigInteger;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.Consumer;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer.SingleRecordHeader;
import org.springframework.kafka.retrytopic.DeadLetterPublishingRecovererFactory;
import org.springframework.kafka.retrytopic.RetryTopicComponentFactory;
import org.springframework.kafka.retrytopic.RetryTopicConfigurationSupport;
import org.springframework.kafka.retrytopic.RetryTopicHeaders;
import org.springframework.kafka.retrytopic.RetryTopicNamesProviderFactory;
import org.springframework.kafka.retrytopic.RetryTopicSchedulerWrapper;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * Global settings of spring-kafka's non-blocking retries, used by the delivery topics only.
 *
 * <ul>
 * <li>Each retry record's due time is the one the attempt computed ({@link RetrySchedule}: the
 * nominal exponential delay with jitter, lengthened to a bounded {@code Retry-After}). It replaces
 * the topic's fixed delay in the {@code retry_topic-backoff-timestamp} header; the retry
 * container pauses the partition until then (a {@link SingleRecordHeader} replaces the header
 * the factory wrote).</li>
 * <li>A database failure ({@link DeliveryStoreUnavailable}) is retried in place, without limit,
 * instead of spending one of the delivery's retries.</li>
 * <li>The retry and dead-letter topics are named by attempt ({@link DeliveryTopics}); records
 * go to them by key.</li>
 * </ul>
 */
@Configuration(proxyBeanMethods = false)
class DeliveryRetryTopics extends RetryTopicConfigurationSupport {

    private final KafkaProperties kafka;

    DeliveryRetryTopics(KafkaProperties kafka) {
        this.kafka = kafka;
    }

    /**
     * The dead-letter topic's consumers never wait for a due time (its records are handled when they
     * arrive), so the retry consumers' short fetch wait ({@link DeliveryKafkaConfiguration}) is not
     * theirs: they fetch as seldom as the service's other consumers (every 5 s when idle in the local
     * suite, instead of twice a second each).
     */
    @Override
    protected void configureCustomizers(CustomizersConfigurer customizers) {
        Duration wait = kafka.getConsumer().getFetchMaxWait();
        if (wait == null) {
            return;
        }
        customizers.customizeListenerContainer(container -> {
            String[] topics = container.getContainerProperties().getTopics();
            if (topics != null && Arrays.asList(topics).contains(DeliveryTopics.DEAD_LETTERS)) {
                container.getContainerProperties().getKafkaConsumerProperties()
                        .setProperty(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, String.valueOf(wait.toMillis()));
            }
        });
    }

    /** Resumes paused retry partitions when their records are due. */
    @Bean
    RetryTopicSchedulerWrapper deliveryRetryScheduler() {
        ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
        scheduler.setThreadNamePrefix("delivery-retry-");
        scheduler.setPoolSize(1);
        return new RetryTopicSchedulerWrapper(scheduler);
    }

    @Override
    protected Consumer<DeadLetterPublishingRecovererFactory> configureDeadLetterPublishingContainerFactory() {
        return factory -> {
            // a failed attempt is logged once by DeliveryAttempts; other failures by the dead-letter handler
            factory.neverLogListenerException();
            factory.setHeadersFunction(DeliveryRetryTopics::dueTime);
            // by key (the webhook id), as the first retry topic is fed, not to the partition of the same
            // number: the next topic may have another partition count (it also spares a metadata look-up)
            factory.setPartitionResolver((record, topic) -> null);
        };
    }

    /** The attempt's own due time replaces the retry topic's fixed delay. */
    private static Headers dueTime(ConsumerRecord<?, ?> record, Exception failure) {
        DeliveryAttemptFailed failed = find(failure);
        if (failed == null) {
            return null;
        }
        Headers headers = new RecordHeaders();
        headers.add(new SingleRecordHeader(RetryTopicHeaders.DEFAULT_HEADER_BACKOFF_TIMESTAMP,
                BigInteger.valueOf(failed.notBefore().toEpochMilli()).toByteArray()));
        return headers;
    }

    /** The retry and dead-letter topics are named by attempt, see {@link DeliveryTopics}. */
    @Override
    protected RetryTopicComponentFactory createComponentFactory() {
        return new RetryTopicComponentFactory() {
            @Override
            public RetryTopicNamesProviderFactory retryTopicNamesProviderFactory() {
                return new DeliveryTopics.Names();
            }
        };
    }

    @Override
    @SuppressWarnings("unchecked")
    protected void configureBlockingRetries(BlockingRetriesConfigurer blockingRetries) {
        blockingRetries.retryOn(DeliveryStoreUnavailable.class)
                .backOff(DeliveryKafkaConfiguration.storeUnavailableBackOff());
    }

    private static DeliveryAttemptFailed find(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof DeliveryAttemptFailed failed) {
                return failed;
            }
        }
        return null;
    }
}
