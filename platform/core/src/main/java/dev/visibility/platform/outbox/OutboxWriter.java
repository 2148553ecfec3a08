package dev.visibility.platform.outbox;

import java.util.List;
import java.util.UUID;

import dev.visibility.platform.consumer.Traced;
import dev.visibility.platform.db.ArrayLiterals;
import dev.visibility.platform.db.DatabaseWakeups;
import dev.visibility.platform.events.PublicEvent;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.tracing.TraceContexts;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Mono;
import tools.jackson.databind.ObjectMapper;

/**
 * Appends a record to the outbox. The insert joins the caller's reactive transaction (use it
 * inside {@code TransactionalOperator#transactional} or a {@code @Transactional} method), so a
 * rolled-back change publishes nothing and a committed one is always published.
 * <p>
 * Each row keeps the W3C {@code traceparent} of an {@code outbox.append} span under the caller's
 * current one (a WebFlux request's, a consumed record's; a new trace when there is none), so that
 * the relay sends it in the same trace ({@link TraceContexts}).
 */
public class OutboxWriter {

    private final DatabaseClient db;
    private final ObjectMapper mapper;
    private final TraceContexts traces;
    private final DatabaseWakeups wakeups;

    /**
     * @param wakeups told of each append, for the relay to be woken once it commits when wake-ups come in
     *                process (from the database, the table's trigger notifies)
     */
    public OutboxWriter(DatabaseClient db, ObjectMapper mapper, TraceContexts traces, DatabaseWakeups wakeups) {
        this.db = db;
        this.mapper = mapper;
        this.traces = traces;
        this.wakeups = wakeups;
    }

    /** Appends any record; {@code payload} is serialized to JSON now, and those exact bytes are published. */
    public Mono<Void> append(String topic, String key, UUID eventId, String eventType, Object payload) {
        String json = payload instanceof String text ? text : mapper.writeValueAsString(payload);
        return traces.capture("outbox.append").singleOptional()
                .flatMap(traceparent -> {
                    DatabaseClient.GenericExecuteSpec spec = db.sql("""
                            INSERT INTO outbox (event_id, topic, message_key, event_type, payload, traceparent)
                            VALUES (:eventId, :topic, :key, :eventType, :payload, :traceparent)""")
                            .bind("eventId", eventId)
                            .bind("topic", topic)
                            .bind("eventType", eventType)
                            .bind("payload", json);
                    spec = key == null ? spec.bindNull("key", String.class) : spec.bind("key", key);
                    spec = traceparent.isEmpty() ? spec.bindNull("traceparent", String.class)
                            : spec.bind("traceparent", traceparent.get());
                    return spec.then();
                })
                .then(wakeups.onCommit("outbox"));
    }

    /** Appends a customer-visible event to {@code public.events}, keyed by project. */
    public Mono<Void> append(PublicEvent<?> event) {
        return append(Topics.PUBLIC_EVENTS, event.projectId(), event.eventId(), event.event(), event);
    }

    /**
     * Appends customer-visible events, in this order, with one statement: for a batch consumer that
     * makes events for many records at once. Each event continues the trace of the record it came
     * from ({@link Traced#traceparent()}, the record's header: a new trace when null), as
     * {@link #append(PublicEvent)} continues the current one.
     */
    public Mono<Void> appendAll(List<Traced<PublicEvent<?>>> events) {
        if (events.isEmpty()) {
            return Mono.empty();
        }
        ArrayLiterals.Column ids = new ArrayLiterals.Column(events.size(), 37);
        ArrayLiterals.Column keys = new ArrayLiterals.Column(events.size(), 38);
        ArrayLiterals.Column types = new ArrayLiterals.Column(events.size(), 24);
        ArrayLiterals.Column payloads = new ArrayLiterals.Column(events.size(), 600);
        ArrayLiterals.Column traceparents = new ArrayLiterals.Column(events.size(), 58);
        for (Traced<PublicEvent<?>> traced : events) {
            PublicEvent<?> event = traced.record();
            ids.uuid(event.eventId());
            keys.text(event.projectId());
            types.text(event.event());
            payloads.text(mapper.writeValueAsString(event));
            traceparents.text(traces.captureUnder("outbox.append", traced.traceparent()));
        }
        // WITH ORDINALITY ... ORDER BY: the rows take their ids (the relay's order) in the list's order
        return db.sql("""
                INSERT INTO outbox (event_id, topic, message_key, event_type, payload, traceparent)
                SELECT id, :topic, message_key, event_type, payload, traceparent
                FROM unnest(:ids::uuid[], :keys::text[], :types::text[], :payloads::text[], :traceparents::text[])
                    WITH ORDINALITY AS e (id, message_key, event_type, payload, traceparent, n)
                ORDER BY n""")
                .bind("topic", Topics.PUBLIC_EVENTS)
                .bind("ids", ids.literal())
                .bind("keys", keys.literal())
                .bind("types", types.literal())
                .bind("payloads", payloads.literal())
                .bind("traceparents", traceparents.literal())
                .then()
                .then(wakeups.onCommit("outbox"));
    }
}
