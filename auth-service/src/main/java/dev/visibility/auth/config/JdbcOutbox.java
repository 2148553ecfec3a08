package dev.visibility.auth.config;

import java.util.UUID;

import dev.visibility.platform.db.DatabaseWakeups;
import dev.visibility.platform.tracing.TraceContexts;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import tools.jackson.databind.ObjectMapper;

/**
 * Appends to the platform's {@code outbox} table of this schema over JDBC, in the caller's JDBC
 * transaction (the platform's {@code OutboxWriter} joins R2DBC transactions only). The platform's
 * relay publishes the rows, woken at commit by the table's trigger or, with wake-ups in process
 * ({@code suite.wakeups.listen=false}), by {@link DatabaseWakeups#onJdbcCommit}. Each row keeps the
 * {@code traceparent} of the request that wrote it, so the relay's send continues that trace
 * (platform README, traces across the outbox).
 */
@Component
public class JdbcOutbox {

    private final JdbcClient jdbc;
    private final ObjectMapper mapper;
    private final TraceContexts traces;
    private final DatabaseWakeups wakeups;

    public JdbcOutbox(JdbcClient jdbc, ObjectMapper mapper, TraceContexts traces, DatabaseWakeups wakeups) {
        this.jdbc = jdbc;
        this.mapper = mapper;
        this.traces = traces;
        this.wakeups = wakeups;
    }

    /** {@code payload} is serialized to JSON now, and those exact bytes are published. */
    public void append(String topic, String key, UUID eventId, String eventType, Object payload) {
        String json = payload instanceof String text ? text : mapper.writeValueAsString(payload);
        jdbc.sql("""
                INSERT INTO outbox (event_id, topic, message_key, event_type, payload, traceparent)
                VALUES (:eventId, :topic, :key, :eventType, :payload, :traceparent)""")
                .param("eventId", eventId).param("topic", topic).param("key", key, java.sql.Types.VARCHAR)
                .param("eventType", eventType).param("payload", json)
                .param("traceparent", traces.capture("outbox.append", traces.registry().getCurrentObservation()),
                        java.sql.Types.VARCHAR)
                .update();
        wakeups.onJdbcCommit("outbox");
    }
}
