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
 * request path 6). Every replica reads every partition without a consumer group: no rebalancing
 * delay, and no replica misses an event another one consumed. It starts at the end (a replica that
 * starts has no cached key to revoke) and afterwards resumes each partition from the position it
 * had reached, after any reconnect or restart of the listener (issue 22): a revocation published
 * while it was disconnected is applied when it is back, not when the cache entry expires.
 */
@Component
public class KeyEventsListener implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(KeyEventsListener.class);
    private static final Duration IDLE_POLL = Duration.ofSeconds(30);

    private final KafkaProperties kafkaProperties;
    private final CredentialCache cache;
    private final ObjectMapper mapper;
    private volatile KafkaConsumer<String, String> consumer;
    private volatile Thread thread;
    private volatile boolean running;
    /** The next offset to read per partition, kept across reconnects; written by the listener's thread only. */
    private final Map<TopicPartition, Long> positions = new java.util.concurrent.ConcurrentHashMap<>();

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
                List<TopicPartition> fresh = partitions.stream().filter(p -> !positions.containsKey(p)).toList();
                kafka.seekToEnd(fresh);
                partitions.forEach(p -> {
                    Long resume = positions.get(p);
                    if (resume != null) {
                        // an offset deleted by compaction meanwhile falls back to auto.offset.reset (earliest)
                        kafka.seek(p, resume);
                    } else {
                        positions.put(p, kafka.position(p));
                    }
                });
                log.info("Following {} for key revocations ({} partitions, {} resumed)", Topics.AUTH_KEYS,
                        partitions.size(), partitions.size() - fresh.size());
                while (running) {
                    // a poll returns as soon as records arrive, and stop() wakes it: the timeout only
                    // sets how often an idle listener loops (five times a second cost 0.1 % of a core; once a
                    // second, 0.4 ms of CPU each time on a machine with page-table isolation, session 54)
                    for (ConsumerRecord<String, String> record : kafka.poll(IDLE_POLL)) {
                        apply(record);
                        positions.put(new TopicPartition(record.topic(), record.partition()), record.offset() + 1);
                    }
                }
            } catch (WakeupException e) {
                if (!running) {
                    return;
                }
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

    /** The next offset this listener reads per partition of {@code auth.keys} (empty until it first connected). */
    Map<TopicPartition, Long> positions() {
        return Map.copyOf(positions);
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
