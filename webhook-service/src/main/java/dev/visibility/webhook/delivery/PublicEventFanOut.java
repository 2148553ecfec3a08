package dev.visibility.webhook.delivery;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import dev.visibility.platform.consumer.Traced;
import dev.visibility.platform.events.PublishedEvent;
import dev.visibility.platform.events.StringProducer;
import dev.visibility.webhook.delivery.FanOutStore.Queued;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Fans {@code public.events} out: for each event, one delivery per active subscription of its
 * project that lists the event name. It is the batch handler of the platform's consumer of
 * {@code public.events} ({@link DeliveryConsumers}), which has already validated every record
 * against {@code docs/events/public.events.schema.json} and sent the unusable ones to
 * {@code public.events.DLT}. A poll's valid events are handled as a whole:
 * <ol>
 * <li>one database statement (atomic, one round trip: {@link FanOutStore#fanOut}) matches the
 * events with the active subscriptions, stores the bodies and inserts the deliveries that do not
 * exist yet (unique per event and webhook), and answers the batch's deliveries that were never
 * attempted;</li>
 * <li>one {@code webhook.deliveries} record per such delivery is sent, and the broker's
 * acknowledgement awaited;</li>
 * <li>only then does the handler complete and the offsets get committed.</li>
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

    private static final Duration LIMIT = Duration.ofSeconds(30);

    private final ObjectMapper json;
    private final DeliveryRecords deliveryRecords;
    private final FanOutStore store;
    private final StringProducer producer;

    PublicEventFanOut(ObjectMapper json, DeliveryRecords deliveryRecords, FanOutStore store, StringProducer producer) {
        this.json = json;
        this.deliveryRecords = deliveryRecords;
        this.store = store;
        this.producer = producer;
    }

    /** Stores the batch's deliveries, then queues those never attempted and waits for the broker. */
    Mono<Void> fanOut(List<PublishedEvent> batch) {
        return fanOutTraced(batch.stream().map(event -> new Traced<>(event, null)).toList());
    }

    /**
     * The same, each delivery keeping its event's trace context (the record's {@code traceparent}),
     * which every attempt of it continues (issue 23, {@link DeliveryAttempts}).
     */
    Mono<Void> fanOutTraced(List<Traced<PublishedEvent>> batch) {
        Map<UUID, Traced<PublishedEvent>> events = new LinkedHashMap<>();
        batch.forEach(event -> events.putIfAbsent(event.record().eventId(), event));
        return store(List.copyOf(events.values()))
                // KafkaTemplate#send waits for the topic's metadata when the producer has none yet: not on
                // the database driver's event loop (BlockHound stopped the consumer there)
                .publishOn(Schedulers.boundedElastic())
                .flatMap(queued -> {
                    List<CompletableFuture<?>> sent = new ArrayList<>(queued.size());
                    // without a producer span each: the attempt continues the trace stored with the delivery
                    for (Queued delivery : queued) {
                        sent.add(producer.unobserved().send(deliveryRecords.request(DeliveryTopics.FIRST,
                                delivery.deliveryId(), delivery.webhookId())));
                    }
                    return Mono.fromFuture(CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)));
                })
                .timeout(LIMIT)
                .then();
    }

    private Mono<List<Queued>> store(List<Traced<PublishedEvent>> events) {
        int n = events.size();
        UUID[] eventIds = new UUID[n];
        UUID[] projectIds = new UUID[n];
        String[] names = new String[n];
        String[] bodies = new String[n];
        String[] traceparents = new String[n];
        for (int i = 0; i < n; i++) {
            PublishedEvent event = events.get(i).record();
            traceparents[i] = events.get(i).traceparent();
            eventIds[i] = event.eventId();
            projectIds[i] = event.projectId();
            names[i] = event.event();
            bodies[i] = body(event);
        }
        return store.fanOut(eventIds, projectIds, names, bodies, traceparents, Instant.now().truncatedTo(ChronoUnit.MICROS)).collectList();
    }

    /** The webhook body: the envelope of spec 6.1, without the eventId. */
    String body(PublishedEvent event) {
        ObjectNode envelope = json.createObjectNode();
        envelope.put("event", event.event());
        envelope.put("projectId", event.projectId().toString());
        envelope.put("accountId", event.accountId());
        envelope.put("timestamp", event.timestamp().toString());
        envelope.set("data", event.data());
        return json.writeValueAsString(envelope);
    }
}
