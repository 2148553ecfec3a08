package dev.visibility.webhook.support;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.platform.events.Topics;
import dev.visibility.platform.testing.TestKafka;
import tools.jackson.databind.json.JsonMapper;

/**
 * Publishes {@code public.events} records the way the producers do (through the platform's
 * outbox): key projectId, value the JSON of {@code PublicEvent}
 * {@code {eventId, event, projectId, accountId, timestamp, data}}, headers {@code eventId} and
 * {@code eventType}; with the tests' plain producer of String values ({@link TestKafka}).
 */
public final class Kafka {

    public static final String ACCOUNT = "00000000-0000-4000-8000-0000000000a1";

    private static final JsonMapper JSON = JsonMapper.builder().build();

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
        TestKafka.publish(topic, key, List.of(value), headers);
    }
}
