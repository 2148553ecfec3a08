package dev.visibility.gateway.auth;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.visibility.platform.events.ApiKeyChanged;
import dev.visibility.platform.events.Topics;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import tools.jackson.databind.ObjectMapper;

/**
 * Follows {@code auth.keys} so that a revoked key is refused by this replica at once (DESIGN.md,
 * request path 6). Every replica reads every partition from the end, without a consumer group:
 * no rebalancing delay, and no replica misses an event another one consumed.
 */
@Component
public class KeyEventsListener implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(KeyEventsListener.class);

    private final KafkaProperties kafkaProperties;
    private final CredentialCache cache;
    private final ObjectMapper mapper;
    private volatile KafkaConsumer<String, String> consumer;
    private volatile Thread thread;
    private volatile boolean running;

    public KeyEventsListener(KafkaProperties kafkaProperties, CredentialCache cache, ObjectMapper mapper) {
        this.kafkaProperties = kafkaProperties;
        this.cache = cache;
        this.mapper = mapper;
    }

    @Override
    public void start() {
        running = true;
        thread = new Thread(this::run, "auth-keys-listener");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        while (running) {
            try (KafkaConsumer<String, String> kafka = new KafkaConsumer<>(config())) {
                consumer = kafka;
                List<TopicPartition> partitions = kafka.partitionsFor(Topics.AUTH_KEYS, Duration.ofSeconds(10)).stream()
                        .map(info -> new TopicPartition(info.topic(), info.partition()))
                        .toList();
                kafka.assign(partitions);
                kafka.seekToEnd(partitions);
                partitions.forEach(kafka::position);
                log.info("Following {} for key revocations ({} partitions)", Topics.AUTH_KEYS, partitions.size());
                while (running) {
                    for (ConsumerRecord<String, String> record : kafka.poll(Duration.ofMillis(200))) {
                        apply(record);
                    }
                }
            } catch (WakeupException e) {
                return;
            } catch (RuntimeException e) {
                if (running) {
                    log.warn("Key event listener failed, reconnecting: {}", e.toString());
                    sleep(1000);
                }
            }
        }
    }

    private void apply(ConsumerRecord<String, String> record) {
        if (record.value() == null) {
            return;
        }
        try {
            ApiKeyChanged event = mapper.readValue(record.value(), ApiKeyChanged.class);
            if (event.change() == ApiKeyChanged.Change.REVOKED) {
                cache.revoked(event.keyHash());
            } else {
                cache.changed(event.keyHash());
            }
        } catch (RuntimeException e) {
            // fall back to the hash in the record key: a revocation must not be lost to a parsing problem
            if (record.key() != null) {
                cache.changed(record.key());
            }
            log.warn("Unreadable record on {} at offset {}", Topics.AUTH_KEYS, record.offset());
        }
    }

    private Map<String, Object> config() {
        Map<String, Object> config = new HashMap<>(kafkaProperties.buildConsumerProperties());
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000);
        config.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        return config;
    }

    @Override
    public void stop() {
        running = false;
        KafkaConsumer<String, String> current = consumer;
        if (current != null) {
            current.wakeup();
        }
        Thread t = thread;
        if (t != null) {
            try {
                t.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
