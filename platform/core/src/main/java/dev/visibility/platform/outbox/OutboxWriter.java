package dev.visibility.platform.outbox;

import java.util.UUID;

import dev.visibility.platform.events.PublicEvent;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.tracing.TraceContexts;
import io.micrometer.observation.ObservationRegistry;
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

    public OutboxWriter(DatabaseClient db, ObjectMapper mapper) {
        this(db, mapper, new TraceContexts(ObservationRegistry.NOOP));
    }

    public OutboxWriter(DatabaseClient db, ObjectMapper mapper, TraceContexts traces) {
        this.db = db;
        this.mapper = mapper;
        this.traces = traces;
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
                });
    }

    /** Appends a customer-visible event to {@code public.events}, keyed by project. */
    public Mono<Void> append(PublicEvent<?> event) {
        return append(Topics.PUBLIC_EVENTS, event.projectId(), event.eventId(), event.event(), event);
    }
}
