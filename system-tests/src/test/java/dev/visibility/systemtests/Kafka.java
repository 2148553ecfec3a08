package dev.visibility.systemtests;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import dev.visibility.platform.events.Topics;
import dev.visibility.platform.testing.SharedInfrastructure;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import tools.jackson.databind.json.JsonMapper;

/**
 * Plain Kafka clients on the shared broker: a producer that publishes JSON records as the internal
 * producers do (tracking runners, agent-picks runners, recommendation jobs), and one recorder of
 * {@code public.events} per test JVM (what visibility-service and actions-service publish).
 */
public final class Kafka {

    static final JsonMapper JSON = JsonMapper.builder().build();
    private static KafkaProducer<String, String> producer;
    private static final List<ConsumerRecord<String, String>> PUBLIC_EVENTS = new CopyOnWriteArrayList<>();
    private static Thread recorder;

    private Kafka() {
    }

    private static synchronized KafkaProducer<String, String> producer() {
        if (producer == null) {
            Properties props = new Properties();
            props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfrastructure.kafkaBootstrapServers());
            props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
            props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
            props.put(ProducerConfig.ACKS_CONFIG, "all");
            props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 4 * 1024 * 1024);
            producer = new KafkaProducer<>(props);
        }
        return producer;
    }

    /** Publishes the records in order under one key (one partition) and waits for the broker. */
    public static void publish(String topic, String key, Object... values) {
        try {
            List<Future<?>> acks = new ArrayList<>();
            for (Object value : values) {
                String json = value instanceof String text ? text : JSON.writeValueAsString(value);
                acks.add(producer().send(new ProducerRecord<>(topic, key, json)));
            }
            for (Future<?> ack : acks) {
                ack.get(20, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            throw new IllegalStateException("could not publish to " + topic, e);
        }
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
        long deadline = System.nanoTime() + within.toNanos();
        List<ConsumerRecord<String, String>> found = publicEvents(matching);
        while (found.size() < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + count + " public events; found " + found.size() + ": "
                        + found.stream().map(ConsumerRecord::value).toList());
            }
            Waits.sleep(50);
            found = publicEvents(matching);
        }
        return found;
    }
}
