package dev.visibility.platform.consumer;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import dev.visibility.platform.events.StringProducer;
import dev.visibility.platform.outbox.ProcessedEvents;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.validation.Validator;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.kafka.autoconfigure.ConcurrentKafkaListenerContainerFactoryConfigurer;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.kafka.annotation.KafkaListenerConfigurer;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.config.KafkaListenerEndpoint;
import org.springframework.kafka.config.KafkaListenerEndpointRegistrar;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.MicrometerConsumerListener;
import org.springframework.kafka.listener.ContainerPausingBackOffHandler;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer.HeaderNames.HeadersToAdd;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.ListenerContainerPauseService;
import org.springframework.kafka.listener.ListenerContainerRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.kafka.support.ExponentialBackOffWithMaxRetries;
import org.springframework.kafka.support.TopicPartitionOffset;
import org.springframework.kafka.support.converter.MessageConverter;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.reactive.TransactionalOperator;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.ExponentialBackOff;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectMapper;

/**
 * Turns the {@link TopicConsumer} beans into listener containers (registered with Spring Kafka's
 * listener registry, so they start and stop with it): String keys and values, offsets committed
 * after the handler succeeded, observation on, and one error handler that classifies each failure
 * ({@link Failures}): a poison record goes to {@code <topic>.DLT} at once with its reason in
 * {@code x-dlt-reason}; a transient failure is retried with the container paused between attempts
 * (it keeps polling, and so its partitions) and exponential back-off (0.5 s
 * doubling, capped at {@code transientMaxInterval}) for as long as it lasts and is never
 * dead-lettered; an unexpected failure is retried {@code unexpectedRetries} times, then dead-lettered.
 */
public class TopicConsumers implements KafkaListenerConfigurer, ApplicationContextAware, DisposableBean {

    /** How the error handler waits between attempts. */
    public record Retries(long initialMillis, long transientMaxIntervalMillis, int unexpectedRetries,
            long unexpectedMaxIntervalMillis) {

        public static final Retries DEFAULT = new Retries(500, 30_000, 6, 10_000);
    }

    private final List<TopicConsumer<?>> consumers;
    private final ConcurrentKafkaListenerContainerFactoryConfigurer configurer;
    private final KafkaProperties properties;
    private final StringProducer deadLetters;
    private final ObjectMapper mapper;
    private final Validator validator;
    private final ProcessedEvents processed;
    private final ReactiveTransactionManager transactions;
    private final Retries retries;
    private final TopicSchemas schemas = new TopicSchemas();
    private ThreadPoolTaskScheduler resumer;
    private ApplicationContext context;

    public TopicConsumers(List<TopicConsumer<?>> consumers, ConcurrentKafkaListenerContainerFactoryConfigurer configurer,
            KafkaProperties properties, StringProducer deadLetters, ObjectMapper mapper, Validator validator,
            ProcessedEvents processed, ReactiveTransactionManager transactions, Retries retries) {
        this.consumers = List.copyOf(consumers);
        this.configurer = configurer;
        this.properties = properties;
        this.deadLetters = deadLetters;
        // decimal numbers keep their digits (a record's data may be passed on as received)
        // and an Instant in the schemas' date-time form is parsed by hand (RecordInstants; same instant)
        this.mapper = mapper.rebuild().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .addModule(RecordInstants.module()).build();
        this.validator = validator;
        this.processed = processed;
        this.transactions = transactions;
        this.retries = retries;
    }

    public List<TopicConsumer<?>> consumers() {
        return consumers;
    }

    @Override
    public void setApplicationContext(ApplicationContext context) throws BeansException {
        this.context = context;
    }

    @Override
    public void configureKafkaListeners(KafkaListenerEndpointRegistrar registrar) {
        if (consumers.isEmpty()) {
            return;
        }
        ConcurrentKafkaListenerContainerFactory<Object, Object> records = null;
        ConcurrentKafkaListenerContainerFactory<Object, Object> batches = null;
        for (TopicConsumer<?> consumer : consumers) {
            if (consumer.isBatch()) {
                batches = batches != null ? batches : batchContainerFactory();
                registrar.registerEndpoint(endpoint(consumer), batches);
            } else {
                records = records != null ? records : containerFactory();
                registrar.registerEndpoint(endpoint(consumer), records);
            }
        }
    }

    @Override
    public void destroy() {
        if (resumer != null) {
            resumer.shutdown();
        }
    }

    ConcurrentKafkaListenerContainerFactory<Object, Object> containerFactory() {
        ConcurrentKafkaListenerContainerFactory<Object, Object> factory = stringFactory();
        factory.setCommonErrorHandler(errorHandler());
        return factory;
    }

    /**
     * Batch listeners: a failed batch is tried again as a whole, with the consumer paused between
     * attempts (polling nothing, so it keeps its partitions), for as long as the failure lasts; the
     * listener itself dead-letters poison records and gives up on unexpected failures.
     */
    ConcurrentKafkaListenerContainerFactory<Object, Object> batchContainerFactory() {
        ConcurrentKafkaListenerContainerFactory<Object, Object> factory = stringFactory();
        factory.setBatchListener(true);
        factory.setCommonErrorHandler(new DefaultErrorHandler(transientBackOff()));
        return factory;
    }

    private ConcurrentKafkaListenerContainerFactory<Object, Object> stringFactory() {
        Map<String, Object> config = new HashMap<>(properties.buildConsumerProperties());
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        // the offset is committed by the container after the handler returned
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        ConcurrentKafkaListenerContainerFactory<Object, Object> factory = new ConcurrentKafkaListenerContainerFactory<>();
        DefaultKafkaConsumerFactory<Object, Object> consumers = new DefaultKafkaConsumerFactory<>(config);
        MeterRegistry meters = meters();
        if (meters != null) {
            // the clients' own metrics, consumer lag per topic and partition among them (docs/operations.md)
            consumers.addListener(new MicrometerConsumerListener<>(meters));
        }
        configurer.configure(factory, consumers);
        factory.getContainerProperties().setObservationEnabled(true);
        if (context != null) {
            factory.setApplicationContext(context);
        }
        return factory;
    }

    DefaultErrorHandler errorHandler() {
        DeadLetterPublishingRecoverer recoverer = new DeadLetterPublishingRecoverer(deadLetters.template(),
                (record, failure) -> new TopicPartition(DeadLetters.topic(record.topic()), -1));
        // the reason instead of the exception's message and stack trace, which may quote values
        recoverer.excludeHeader(HeadersToAdd.EX_MSG, HeadersToAdd.EX_STACKTRACE);
        recoverer.addHeadersFunction((record, failure) -> new RecordHeaders(List.of(new RecordHeader(
                DeadLetters.REASON_HEADER, Failures.reason(failure).getBytes(StandardCharsets.UTF_8)))));

        ExponentialBackOffWithMaxRetries unexpected = new ExponentialBackOffWithMaxRetries(retries.unexpectedRetries());
        unexpected.setInitialInterval(retries.initialMillis());
        unexpected.setMultiplier(2.0);
        unexpected.setMaxInterval(retries.unexpectedMaxIntervalMillis());
        BackOff transientFailures = transientBackOff();

        // between attempts the container is paused (it keeps polling, and so its partitions), not put to sleep
        DefaultErrorHandler handler = new DefaultErrorHandler(recoverer, unexpected,
                new ContainerPausingBackOffHandler(new ListenerContainerPauseService(registry(), resumer())));
        handler.setBackOffFunction((record, failure) -> backOff(failure, transientFailures, unexpected));
        handler.addNotRetryableExceptions(PoisonRecord.class);
        // a failure of another kind starts the count anew (a database outage after a bug, or the reverse)
        handler.setResetStateOnExceptionChange(true);
        return handler;
    }

    private BackOff transientBackOff() {
        ExponentialBackOff transientFailures = new ExponentialBackOff(retries.initialMillis(), 2.0);
        transientFailures.setMaxInterval(retries.transientMaxIntervalMillis());
        transientFailures.setMaxElapsedTime(Long.MAX_VALUE);
        transientFailures.setMaxAttempts(Long.MAX_VALUE);
        return transientFailures;
    }

    /** The service's meter registry, or null (none, or no application context). */
    private MeterRegistry meters() {
        return context == null ? null : context.getBeanProvider(MeterRegistry.class).getIfUnique();
    }

    private ListenerContainerRegistry registry() {
        return context == null ? null : context.getBeanProvider(ListenerContainerRegistry.class).getIfAvailable();
    }

    private synchronized ThreadPoolTaskScheduler resumer() {
        if (resumer == null) {
            resumer = new ThreadPoolTaskScheduler();
            resumer.setPoolSize(1);
            resumer.setThreadNamePrefix("topic-consumer-resume-");
            resumer.setDaemon(true);
            resumer.initialize();
        }
        return resumer;
    }

    private static BackOff backOff(Exception failure, BackOff transientFailures, BackOff unexpected) {
        return Failures.classify(failure) == Failures.Kind.TRANSIENT ? transientFailures : unexpected;
    }

    private KafkaListenerEndpoint endpoint(TopicConsumer<?> consumer) {
        return new Endpoint(consumer, listener(consumer));
    }

    private <T extends ConsumedRecord> Object listener(TopicConsumer<T> consumer) {
        if (consumer.isIdempotent() && (processed == null || transactions == null)) {
            throw new IllegalStateException("The consumer of " + consumer.topic()
                    + " is idempotent but the service has no database (ProcessedEvents, ReactiveTransactionManager)");
        }
        RecordReader<T> reader = new RecordReader<>(consumer.topic(), consumer.type(), mapper, validator, schemas,
                consumer.quickReader(), meters());
        TransactionalOperator tx = transactions == null ? null : TransactionalOperator.create(transactions);
        if (consumer.isBatch()) {
            return new BatchTopicConsumerListener<>(consumer, reader, processed, tx, deadLetters,
                    retries.unexpectedRetries());
        }
        return new TopicConsumerListener<>(consumer, reader, processed, tx, context == null ? ObservationRegistry.NOOP
                : context.getBeanProvider(ObservationRegistry.class).getIfUnique(() -> ObservationRegistry.NOOP));
    }

    /** One topic, the service's group, its own listener. */
    private record Endpoint(TopicConsumer<?> consumer, Object listener) implements KafkaListenerEndpoint {

        @Override
        public String getId() {
            return TopicConsumer.listenerId(consumer.topic());
        }

        @Override
        public String getGroupId() {
            return null;
        }

        @Override
        public String getGroup() {
            return null;
        }

        @Override
        public java.util.Collection<String> getTopics() {
            return List.of(consumer.topic());
        }

        @Override
        public TopicPartitionOffset[] getTopicPartitionsToAssign() {
            return null;
        }

        @Override
        public java.util.regex.Pattern getTopicPattern() {
            return null;
        }

        @Override
        public String getClientIdPrefix() {
            return null;
        }

        @Override
        public Integer getConcurrency() {
            return consumer.concurrency();
        }

        @Override
        public Boolean getAutoStartup() {
            return null;
        }

        @Override
        public Properties getConsumerProperties() {
            if (consumer.maxPollRecords() == null && consumer.gather() == null) {
                return null;
            }
            Properties overrides = new Properties();
            if (consumer.maxPollRecords() != null) {
                overrides.setProperty(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, consumer.maxPollRecords().toString());
            }
            if (consumer.gather() != null) {
                overrides.setProperty(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, String.valueOf(consumer.gather().minBytes()));
                overrides.setProperty(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, String.valueOf(consumer.gather().maxWait().toMillis()));
            }
            return overrides;
        }

        @Override
        public void setupListenerContainer(MessageListenerContainer container, MessageConverter messageConverter) {
            container.setupMessageListener(listener);
        }

        @Override
        public boolean isSplitIterables() {
            return false;
        }
    }
}
