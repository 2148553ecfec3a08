package dev.visibility.platform.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.platform.events.Topics;
import dev.visibility.platform.testing.TestKafka;
import dev.visibility.platform.tracing.TraceContexts;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Issue 23 (DESIGN.md, Operations: "one trace id runs from the request or the producer's record to
 * the webhook POST"): a row appended to the outbox inside a span is relayed, later and on another
 * thread, in the same trace: the record's W3C {@code traceparent} header carries the request's
 * trace id (with a span id of its own). Real PostgreSQL, a real Kafka broker, the service's own
 * observation registry with Micrometer Tracing over OpenTelemetry.
 */
class OutboxTraceIntegrationTest extends OutboxTestSupport {

    private static final Duration WITHIN = Duration.ofSeconds(20);

    @Autowired
    ObservationRegistry observations;
    @Autowired
    Tracer tracer;

    @Test
    void rowWrittenInAWebFluxRequestsSpanIsRelayedInItsTrace() {
        String topic = "outbox-trace-" + UUID.randomUUID();
        UUID eventId = UUID.randomUUID();
        Observation request = Observation.start("test.request", observations);
        Span requestSpan;
        try (Observation.Scope scope = request.openScope()) {
            requestSpan = tracer.currentSpan();
        }
        assertThat(requestSpan).as("the test's registry traces").isNotNull();
        // as WebFlux holds a request's observation: in the Reactor context, not on the thread
        tx().transactional(writer.append(topic, "k", eventId, "test.event", Map.of("n", 1)))
                .contextWrite(context -> context.put(ObservationThreadLocalAccessor.KEY, request))
                .block();
        request.stop();

        String stored = storedTraceparent(eventId);
        assertThat(TraceContexts.traceId(stored)).isEqualTo(requestSpan.context().traceId());

        ConsumerRecord<String, String> record = relayAndRead(topic, eventId);
        String sent = TraceContexts.traceparent(record.headers());
        assertThat(sent).as("the record's traceparent header").isNotNull();
        assertThat(TraceContexts.traceId(sent)).isEqualTo(requestSpan.context().traceId());
        assertThat(sent.substring(36, 52)).as("a span of its own").isNotEqualTo(requestSpan.context().spanId());
        assertThat(sent).endsWith("-01");
    }

    @Test
    void rowWrittenOnAThreadWithACurrentObservationIsRelayedInItsTrace() {
        // as a Kafka listener or a servlet request holds its observation: current on the thread
        String topic = "outbox-trace-" + UUID.randomUUID();
        UUID eventId = UUID.randomUUID();
        Observation consumed = Observation.start("test.consumed", observations);
        String traceId;
        try (Observation.Scope scope = consumed.openScope()) {
            traceId = tracer.currentSpan().context().traceId();
            tx().transactional(db.sql("SELECT 1").then().then(writer.append(topic, "k", eventId, "test.event",
                            Map.of("n", 2))))
                    .block();
        } finally {
            consumed.stop();
        }
        ConsumerRecord<String, String> record = relayAndRead(topic, eventId);
        assertThat(TraceContexts.traceId(TraceContexts.traceparent(record.headers()))).isEqualTo(traceId);
    }

    @Test
    void rowWrittenOutsideAnyTraceStartsOneThatTheRecordContinues() {
        String topic = "outbox-trace-" + UUID.randomUUID();
        UUID eventId = UUID.randomUUID();
        assertThat(observations.getCurrentObservation()).isNull();
        append(topic, "k", eventId, Map.of("n", 3));
        String stored = storedTraceparent(eventId);
        assertThat(stored).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-01");
        ConsumerRecord<String, String> record = relayAndRead(topic, eventId);
        assertThat(TraceContexts.traceId(TraceContexts.traceparent(record.headers())))
                .isEqualTo(TraceContexts.traceId(stored));
    }

    private ConsumerRecord<String, String> relayAndRead(String topic, UUID eventId) {
        OutboxRelay relay = OutboxRelay.create(db, transactionManager, kafkaProperties, wakeups,
                relayProperties(Duration.ofMillis(50), Duration.ofMillis(50), 100), observations);
        try {
            relay.start();
            // a sentinel after the row on the same key: once it arrived, the row is before it
            UUID sentinel = UUID.randomUUID();
            tx().transactional(writer.append(topic, "k", sentinel, "test.sentinel", Map.of("sentinel", true)))
                    .block();
            List<ConsumerRecord<String, String>> records = TestKafka.recordsBefore(topic, r -> true,
                    r -> sentinel.toString().equals(header(r, Topics.EVENT_ID_HEADER)), WITHIN);
            assertThat(records).hasSize(1);
            assertThat(header(records.get(0), Topics.EVENT_ID_HEADER)).isEqualTo(eventId.toString());
            return records.get(0);
        } finally {
            relay.stop();
        }
    }

    private String storedTraceparent(UUID eventId) {
        return db.sql("SELECT traceparent FROM outbox WHERE event_id = :id").bind("id", eventId)
                .map(row -> row.get(0, String.class)).one().block();
    }
}
