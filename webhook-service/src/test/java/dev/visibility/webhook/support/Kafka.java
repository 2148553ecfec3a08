package dev.visibility.webhook.support;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import dev.visibility.platform.events.Topics;
import dev.visibility.platform.testing.SharedInfrastructure;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import tools.jackson.databind.json.JsonMapper;

/**
 * Publishes {@code public.events} records the way the producers do (through the platform's
 * outbox): key projectId, value the JSON of {@code PublicEvent}
 * {@code {eventId, event, projectId, accountId, timestamp, data}}, headers {@code eventId} and
 * {@code eventType}; with a plain producer of String values.
 */
public final class Kafka {

    public static final String ACCOUNT = "00000000-0000-4000-8000-0000000000a1";

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static KafkaProducer<String, String> producer;

    private Kafka() {
    }

    /** A public event as it travels on Kafka; {@code data} is a JSON object. */
    public record PublicEventRecord(UUID eventId, String event, String projectId, String accountId, String timestamp,
            String dataJson) {

        public String json() {
            return "{\"eventId\":\"" + eventId + "\",\"event\":\"" + event + "\",\"projectId\":\"" + projectId
                    + "\",\"accountId\":\"" + accountId + "\",\"timestamp\":\"" + timestamp + "\",\"data\":" + dataJson + "}";
        }
    }

    public static PublicEventRecord event(String event, String projectId, Object data) {
        return new PublicEventRecord(UUID.randomUUID(), event, projectId, ACCOUNT, Instant.now().toString(),
                JSON.writeValueAsString(data));
    }

    public static void publish(PublicEventRecord event) {
        publishRaw(event.projectId(), event.json(), Map.of(Topics.EVENT_ID_HEADER, event.eventId().toString(),
                Topics.EVENT_TYPE_HEADER, event.event()));
    }

    public static void publishRaw(String key, String value, Map<String, String> headers) {
        publishRaw(Topics.PUBLIC_EVENTS, key, value, headers);
    }

    public static void publishRaw(String topic, String key, String value, Map<String, String> headers) {
        ProducerRecord<String, String> record = new ProducerRecord<>(topic, key, value);
        headers.forEach((name, headerValue) -> record.headers().add(name, headerValue.getBytes(StandardCharsets.UTF_8)));
        try {
            producer().send(record).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("Could not publish to " + topic, e);
        }
    }

    private static synchronized KafkaProducer<String, String> producer() {
        if (producer == null) {
            Properties props = new Properties();
            props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfrastructure.kafkaBootstrapServers());
            props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
            props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
            props.put(ProducerConfig.ACKS_CONFIG, "all");
            props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
            KafkaProducer<String, String> created = new KafkaProducer<>(props);
            Runtime.getRuntime().addShutdownHook(new Thread(created::close, "test-producer-close"));
            producer = created;
        }
        return producer;
    }
}
