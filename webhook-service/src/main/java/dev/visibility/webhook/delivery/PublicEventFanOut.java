package dev.visibility.webhook.delivery;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.visibility.platform.events.EventName;
import dev.visibility.platform.events.Topics;
import dev.visibility.webhook.delivery.FanOutStore.Queued;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Fans {@code public.events} out: for each event, one delivery per active subscription of its
 * project that lists the event name. A poll's batch is handled as a whole:
 * <ol>
 * <li>records that are not usable public events go unchanged to the dead-letter topic;</li>
 * <li>one database statement (atomic, one round trip: {@link FanOutStore#fanOut}) matches the
 * events with the active subscriptions, stores the bodies and inserts the deliveries that do not
 * exist yet (unique per event and webhook), and answers the batch's deliveries that were never
 * attempted;</li>
 * <li>one {@code webhook.deliveries} record per such delivery is sent, and the broker's
 * acknowledgement awaited;</li>
 * <li>only then does the listener return and the offsets get committed.</li>
 * </ol>
 * A crash anywhere re-reads the batch: nothing is created twice, and every delivery that was
 * never attempted is queued again (a duplicate record is harmless: an attempt re-reads the
 * delivery's state, and the receiver de-duplicates on {@code X-Service-Delivery}). The consumed
 * topic plays the part of an outbox here: the step that publishes can always be repeated from it.
 *
 * <p>The body is the envelope of spec 6.1, {@code {event, projectId, accountId, timestamp, data}}
 * without the record's eventId, serialized here once; {@code data} is kept as received (decimal
 * numbers keep their digits) and {@code timestamp} is written as ISO 8601 in UTC.
 */
@Component
class PublicEventFanOut {

    static final String ID = "webhook-fan-out";

    private static final Logger log = LoggerFactory.getLogger(PublicEventFanOut.class);
    private static final Duration LIMIT = Duration.ofSeconds(30);

    /** What the fan-out needs of a public event. */
    record IncomingEvent(UUID eventId, String event, UUID projectId, String body) {
    }

    private final JsonMapper json = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build();
    private final DeliveryRecords deliveryRecords;
    private final FanOutStore store;
    private final DeliveryKafkaConfiguration.StringRecords records;

    PublicEventFanOut(DeliveryRecords deliveryRecords, FanOutStore store, DeliveryKafkaConfiguration.StringRecords records) {
        this.deliveryRecords = deliveryRecords;
        this.store = store;
        this.records = records;
    }

    @KafkaListener(id = ID, topics = Topics.PUBLIC_EVENTS, containerFactory = DeliveryKafkaConfiguration.FAN_OUT_FACTORY,
            batch = "true")
    void onPublicEvents(List<ConsumerRecord<String, String>> batch) {
        Map<UUID, IncomingEvent> events = new LinkedHashMap<>();
        List<ConsumerRecord<String, String>> unusable = new ArrayList<>();
        for (ConsumerRecord<String, String> record : batch) {
            try {
                IncomingEvent event = parse(record.value());
                events.putIfAbsent(event.eventId(), event);
            } catch (UnusableRecord e) {
                log.warn("Public event {}-{}@{} is unusable ({}); it goes to {}", record.topic(), record.partition(),
                        record.offset(), e.getMessage(), DeliveryKafkaConfiguration.PUBLIC_EVENTS_DEAD_LETTERS);
                unusable.add(record);
            }
        }
        List<CompletableFuture<?>> sent = new ArrayList<>();
        for (ConsumerRecord<String, String> record : unusable) {
            ProducerRecord<String, String> parked = new ProducerRecord<>(DeliveryKafkaConfiguration.PUBLIC_EVENTS_DEAD_LETTERS,
                    null, record.key(), record.value(), record.headers());
            sent.add(records.template.send(parked));
        }
        if (!events.isEmpty()) {
            List<Queued> queued;
            try {
                queued = store(List.copyOf(events.values())).block(LIMIT);
            } catch (RuntimeException e) {
                throw new DeliveryStoreUnavailable(e);
            }
            for (Queued delivery : queued == null ? List.<Queued>of() : queued) {
                sent.add(records.template.send(deliveryRecords.request(DeliveryTopics.FIRST, delivery.deliveryId(),
                        delivery.webhookId())));
            }
        }
        awaitAcknowledged(sent);
    }

    private Mono<List<Queued>> store(List<IncomingEvent> events) {
        int n = events.size();
        UUID[] eventIds = new UUID[n];
        UUID[] projectIds = new UUID[n];
        String[] names = new String[n];
        String[] bodies = new String[n];
        for (int i = 0; i < n; i++) {
            IncomingEvent event = events.get(i);
            eventIds[i] = event.eventId();
            projectIds[i] = event.projectId();
            names[i] = event.event();
            bodies[i] = event.body();
        }
        return store.fanOut(eventIds, projectIds, names, bodies, Instant.now().truncatedTo(ChronoUnit.MICROS)).collectList();
    }

    private static void awaitAcknowledged(List<CompletableFuture<?>> sent) {
        if (sent.isEmpty()) {
            return;
        }
        try {
            CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DeliveryStoreUnavailable(e);
        } catch (Exception e) {
            throw new DeliveryStoreUnavailable(e);
        }
    }

    IncomingEvent parse(String value) {
        if (value == null) {
            throw new UnusableRecord("a public event without a value");
        }
        JsonNode root;
        try {
            root = json.readTree(value);
        } catch (JacksonException e) {
            throw new UnusableRecord("a public event that is not JSON");
        }
        if (root == null || !root.isObject()) {
            throw new UnusableRecord("a public event that is not a JSON object");
        }
        UUID eventId = uuid(root.get("eventId"), "eventId");
        String event = string(root.get("event"), "event");
        if (EventName.fromWire(event).isEmpty()) {
            throw new UnusableRecord("a public event with an event name outside spec 6");
        }
        UUID projectId = uuid(root.get("projectId"), "projectId");
        String accountId = string(root.get("accountId"), "accountId");
        JsonNode data = root.get("data");
        if (data == null || !data.isObject()) {
            throw new UnusableRecord("a public event whose data is not an object");
        }
        ObjectNode envelope = json.createObjectNode();
        envelope.put("event", event);
        envelope.put("projectId", projectId.toString());
        envelope.put("accountId", accountId);
        envelope.put("timestamp", timestamp(root.get("timestamp")).toString());
        envelope.set("data", data);
        return new IncomingEvent(eventId, event, projectId, json.writeValueAsString(envelope));
    }

    private static String string(JsonNode node, String field) {
        if (node == null || !node.isString() || node.stringValue().isEmpty()) {
            throw new UnusableRecord("a public event without " + field);
        }
        return node.stringValue();
    }

    private static UUID uuid(JsonNode node, String field) {
        String text = string(node, field);
        try {
            UUID uuid = UUID.fromString(text);
            if (uuid.toString().equalsIgnoreCase(text)) {
                return uuid;
            }
        } catch (IllegalArgumentException e) {
            // reported below
        }
        throw new UnusableRecord("a public event whose " + field + " is not a UUID");
    }

    /** ISO 8601 with any offset, or epoch seconds (Jackson's numeric form of an Instant). */
    private static Instant timestamp(JsonNode node) {
        if (node != null && node.isNumber()) {
            BigDecimal seconds = node.decimalValue();
            return Instant.ofEpochSecond(seconds.longValue(),
                    seconds.remainder(BigDecimal.ONE).movePointRight(9).intValue());
        }
        String text = string(node, "timestamp");
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            throw new UnusableRecord("a public event whose timestamp is not ISO 8601");
        }
    }
}
