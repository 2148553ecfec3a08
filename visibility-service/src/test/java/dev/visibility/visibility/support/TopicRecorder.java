package dev.visibility.visibility.support;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import dev.visibility.platform.testing.SharedInfrastructure;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.Awaitility;

/**
 * Records everything published on one topic of the shared test broker, from its beginning, in a
 * background thread (one per topic and test JVM). Tests filter by their own fresh project ids.
 */
public final class TopicRecorder {

    private static final Map<String, TopicRecorder> RECORDERS = new ConcurrentHashMap<>();

    private final List<ConsumerRecord<String, String>> records = new CopyOnWriteArrayList<>();
    private final String topic;

    private TopicRecorder(String topic) {
        this.topic = topic;
        Thread thread = new Thread(() -> run(topic), "test-recorder-" + topic);
        thread.setDaemon(true);
        thread.start();
    }

    public static TopicRecorder of(String topic) {
        return RECORDERS.computeIfAbsent(topic, TopicRecorder::new);
    }

    private void run(String topic) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfrastructure.kafkaBootstrapServers());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "test-recorder-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        props.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, 1000);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props)) {
            consumer.subscribe(List.of(topic));
            while (true) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
    }

    /** The records that match, once at least {@code atLeast} have arrived; fails after {@code within}. */
    public List<ConsumerRecord<String, String>> await(Predicate<ConsumerRecord<String, String>> filter, int atLeast,
            Duration within) {
        return awaitUntil(filter, matching -> matching.size() >= atLeast, within);
    }

    /** The records that match, once {@code done} holds for them; fails after {@code within}. */
    public List<ConsumerRecord<String, String>> awaitUntil(Predicate<ConsumerRecord<String, String>> filter,
            Predicate<List<ConsumerRecord<String, String>>> done, Duration within) {
        return Awaitility.await("records on " + topic).atMost(within).pollInterval(Duration.ofMillis(50))
                .until(() -> current(filter), done::test);
    }

    public List<ConsumerRecord<String, String>> current(Predicate<ConsumerRecord<String, String>> filter) {
        return records.stream().filter(filter).toList();
    }
}
