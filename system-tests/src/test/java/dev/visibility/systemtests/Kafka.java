package dev.visibility.systemtests;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import dev.visibility.platform.events.Topics;
import dev.visibility.platform.testing.SharedInfrastructure;
import dev.visibility.platform.testing.TestKafka;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import tools.jackson.databind.json.JsonMapper;

/**
 * Plain Kafka clients on the shared broker: a producer that publishes JSON records as the internal
 * producers do (tracking runners, agent-picks runners, recommendation jobs), and one recorder of
 * {@code public.events} per test JVM (what visibility-service and actions-service publish).
 */
public final class Kafka {

    static final JsonMapper JSON = JsonMapper.builder().build();
    private static final List<ConsumerRecord<String, String>> PUBLIC_EVENTS = new CopyOnWriteArrayList<>();
    private static Thread recorder;

    private Kafka() {
    }

    /**
     * Publishes the records in order under one key (one partition) and waits for the broker; a
     * value that is not a String is written as JSON.
     */
    public static void publish(String topic, String key, Object... values) {
        TestKafka.publish(topic, key, Arrays.stream(values)
                .map(value -> value instanceof String text ? text : JSON.writeValueAsString(value))
                .toList());
    }

    /** Starts recording {@code public.events} from its beginning (once per test JVM). */
    public static synchronized void recordPublicEvents() {
        if (recorder != null) {
            return;
        }
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfrastructure.kafkaBootstrapServers());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "system-tests-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        props.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, 1000);
        KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props);
        consumer.subscribe(List.of(Topics.PUBLIC_EVENTS));
        recorder = new Thread(() -> {
            while (true) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(100))) {
                    PUBLIC_EVENTS.add(record);
                }
            }
        }, "public-events-recorder");
        recorder.setDaemon(true);
        recorder.start();
    }

    /** The recorded public events that match, in the order they were read. */
    public static List<ConsumerRecord<String, String>> publicEvents(Predicate<ConsumerRecord<String, String>> matching) {
        return PUBLIC_EVENTS.stream().filter(matching).toList();
    }

    /** Waits until at least {@code count} recorded public events match; answers all that match. */
    public static List<ConsumerRecord<String, String>> awaitPublicEvents(Predicate<ConsumerRecord<String, String>> matching,
            int count, Duration within) {
        return Waits.until(count + " public events", within, () -> publicEvents(matching), found -> found.size() >= count);
    }
}
