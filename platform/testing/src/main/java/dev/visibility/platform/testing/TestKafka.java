package dev.visibility.platform.testing;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Plain Kafka clients against the shared test broker, as an internal producer or another service
 * would use them: String keys and values, exactly the bytes given.
 */
public final class TestKafka {

    private static KafkaProducer<String, String> producer;

    private TestKafka() {
    }

    /** Publishes records in order to the partition of {@code key} and waits for the broker's acknowledgements. */
    public static void publish(String topic, String key, String... values) {
        publish(topic, key, List.of(values));
    }

    /** Publishes records in order to the partition of {@code key} and waits for the broker's acknowledgements. */
    public static void publish(String topic, String key, List<String> values) {
        publish(topic, key, values, java.util.Map.of());
    }

    /** The same, each record with these headers (UTF-8 values), as an instrumented producer sends {@code traceparent}. */
    public static void publish(String topic, String key, List<String> values, java.util.Map<String, String> headers) {
        try {
            List<Future<?>> acks = new ArrayList<>();
            for (String value : values) {
                ProducerRecord<String, String> record = new ProducerRecord<>(topic, key, value);
                headers.forEach((name, header) -> record.headers().add(name,
                        header.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
                acks.add(producer().send(record));
            }
            for (Future<?> ack : acks) {
                ack.get(20, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while publishing to " + topic, e);
        } catch (Exception e) {
            throw new IllegalStateException("Could not publish to " + topic, e);
        }
    }

    /**
     * The one producer of the test JVM (thread-safe; the shared broker lives as long as the JVM):
     * a producer made per call costs a metadata round trip each, which tests that publish record
     * by record pay many times over.
     */
    private static synchronized KafkaProducer<String, String> producer() {
        if (producer == null) {
            Properties props = new Properties();
            props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfrastructure.kafkaBootstrapServers());
            props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
            props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
            props.put(ProducerConfig.ACKS_CONFIG, "all");
            // agent-picks records carry evidence batches larger than the client's 1 MB default
            props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 4 * 1024 * 1024);
            producer = new KafkaProducer<>(props);
        }
        return producer;
    }

    /**
     * Reads {@code topic} from the beginning until {@code count} records match, and answers them;
     * fails (with what it found) when they have not arrived {@code within}. For "and nothing more",
     * use {@link #recordsBefore} with a sentinel instead of reading on for a while.
     */
    public static List<ConsumerRecord<String, String>> awaitRecords(String topic,
            Predicate<ConsumerRecord<String, String>> matching, int count, Duration within) {
        List<ConsumerRecord<String, String>> found = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = consumer(topic)) {
            await("%d matching records on %s".formatted(count, topic)).atMost(within)
                    .pollInSameThread().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(10))
                    .until(() -> {
                        consumer.poll(Duration.ofMillis(200)).forEach(record -> {
                            if (matching.test(record)) {
                                found.add(record);
                            }
                        });
                        return found.size() >= count;
                    });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("Only " + found.size() + " of " + count + " matching records arrived on " + topic
                    + " within " + within + ": " + found.stream().map(ConsumerRecord::value).toList(), e);
        }
        return found;
    }

    /**
     * The proof that nothing more arrived: reads {@code topic} from the beginning until a record
     * matching {@code sentinel} arrives, and answers the records matching {@code matching} that came
     * before it. Publish the sentinel after whatever is under test, to the same partition (the same
     * key), so that everything the test caused is ahead of it in that partition; records published
     * to other partitions are not ordered against it.
     */
    public static List<ConsumerRecord<String, String>> recordsBefore(String topic,
            Predicate<ConsumerRecord<String, String>> matching, Predicate<ConsumerRecord<String, String>> sentinel,
            Duration within) {
        List<ConsumerRecord<String, String>> before = new ArrayList<>();
        boolean[] seen = new boolean[1];
        try (KafkaConsumer<String, String> consumer = consumer(topic)) {
            await("the sentinel on " + topic).atMost(within)
                    .pollInSameThread().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(10))
                    .until(() -> {
                        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                            if (seen[0]) {
                                continue;
                            }
                            if (sentinel.test(record)) {
                                seen[0] = true;
                            } else if (matching.test(record)) {
                                before.add(record);
                            }
                        }
                        return seen[0];
                    });
        }
        return before;
    }

    /**
     * Waits until the consumer group {@code groupId} has committed, on every partition of
     * {@code topic}, the offsets that were the partitions' ends when called: every record published
     * before this call has been processed. The sentinel of a consumer whose effect under test is
     * that nothing happens (a duplicate ignored, a cancelled retry not sent).
     */
    public static void awaitConsumed(String groupId, String topic, Duration within) {
        try (Admin admin = Admin.create(Map.<String, Object>of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                SharedInfrastructure.kafkaBootstrapServers()))) {
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS).get(topic).partitions()
                    .forEach(p -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
            Map<TopicPartition, Long> ends = new HashMap<>();
            admin.listOffsets(latest).all().get(10, TimeUnit.SECONDS).forEach((partition, info) -> ends.put(partition, info.offset()));
            await("group " + groupId + " past " + ends).atMost(within).pollInterval(Duration.ofMillis(100)).until(() -> {
                Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(groupId)
                        .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
                return ends.entrySet().stream().allMatch(end -> end.getValue() == 0
                        || committed.get(end.getKey()) != null && committed.get(end.getKey()).offset() >= end.getValue());
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Could not read the offsets of " + topic, e);
        }
    }

    private static KafkaConsumer<String, String> consumer(String topic) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfrastructure.kafkaBootstrapServers());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "test-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props);
        consumer.subscribe(List.of(topic));
        return consumer;
    }
}
