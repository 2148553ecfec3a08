package dev.visibility.platform.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Plain Kafka clients against the shared test broker, as an internal producer or another service
 * would use them: String keys and values, exactly the bytes given.
 */
public final class TestKafka {

    private TestKafka() {
    }

    /** Publishes records in order to the partition of {@code key} and waits for the broker's acknowledgements. */
    public static void publish(String topic, String key, String... values) {
        publish(topic, key, List.of(values));
    }

    /** Publishes records in order to the partition of {@code key} and waits for the broker's acknowledgements. */
    public static void publish(String topic, String key, List<String> values) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfrastructure.kafkaBootstrapServers());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        // agent-picks records carry evidence batches larger than the client's 1 MB default
        props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 4 * 1024 * 1024);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props)) {
            List<Future<?>> acks = new ArrayList<>();
            for (String value : values) {
                acks.add(producer.send(new ProducerRecord<>(topic, key, value)));
            }
            for (Future<?> ack : acks) {
                ack.get(10, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            throw new IllegalStateException("Could not publish to " + topic, e);
        }
    }

    /** Reads {@code topic} from the beginning until {@code count} records match or {@code within} passes. */
    public static List<ConsumerRecord<String, String>> awaitRecords(String topic,
            Predicate<ConsumerRecord<String, String>> matching, int count, Duration within) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfrastructure.kafkaBootstrapServers());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "test-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        List<ConsumerRecord<String, String>> found = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props)) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + within.toNanos();
            while (System.nanoTime() < deadline && found.size() < count) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    if (matching.test(record)) {
                        found.add(record);
                    }
                }
            }
        }
        return found;
    }
}
