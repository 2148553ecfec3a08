package dev.visibility.local;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes one record the way the suite's internal producers do (platform defaults and DESIGN.md
 * "Kafka"): idempotent, {@code acks=all}, String key and JSON value, headers {@code eventId} and
 * {@code eventType}, bounded waits (10 s for metadata and each request, 30 s for the delivery).
 */
final class InternalProducer {

    static final String EVENT_ID_HEADER = "eventId";
    static final String EVENT_TYPE_HEADER = "eventType";
    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(30);

    private InternalProducer() {
    }

    static RecordMetadata publish(String bootstrap, String topic, String key, String eventId, String eventType, String json) {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.CLIENT_ID_CONFIG, "suite-simulate");
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) DELIVERY_TIMEOUT.toMillis());
        config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config)) {
            ProducerRecord<String, String> record = new ProducerRecord<>(topic, key, json);
            record.headers().add(EVENT_ID_HEADER, eventId.getBytes(StandardCharsets.UTF_8));
            record.headers().add(EVENT_TYPE_HEADER, eventType.getBytes(StandardCharsets.UTF_8));
            return producer.send(record).get(DELIVERY_TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(1, "interrupted before Kafka acknowledged the record");
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            throw new CliException(1, "Kafka at " + bootstrap + " did not take the record on " + topic + " ("
                    + cause.getClass().getSimpleName() + ": " + cause.getMessage() + "); is the suite up? ./suite status");
        } catch (org.apache.kafka.common.KafkaException e) {
            throw new CliException(1, "Kafka at " + bootstrap + " refused the record on " + topic + " (" + e.getMessage() + ")");
        }
    }
}
