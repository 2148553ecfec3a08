package dev.visibility.webhook.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.testing.Http;
import dev.visibility.platform.tracing.TraceContexts;
import dev.visibility.webhook.support.Events;
import dev.visibility.webhook.support.Kafka;
import dev.visibility.webhook.support.Receiver;
import dev.visibility.webhook.support.WebhookApiTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;

/**
 * Issue 23 (DESIGN.md, Operations: one trace id from the request or the producer's record to the
 * webhook POST): a delivery keeps the trace of the {@code public.events} record it was made for
 * (its {@code traceparent} header), and its attempt is logged with that trace id in the MDC; a
 * redelivery keeps the trace of the redeliver request. The POST carries no trace header (spec 6.3).
 */
class DeliveryTraceTest extends WebhookApiTest {

    private static final Duration WITHIN = Duration.ofSeconds(30);
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String TRACEPARENT = "00-" + TRACE_ID + "-00f067aa0ba902b7-01";

    @Autowired
    DatabaseClient db;

    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();

    @BeforeEach
    void captureAttemptLines() {
        lines.start();
        ((Logger) LoggerFactory.getLogger(DeliveryAttempts.class)).addAppender(lines);
    }

    @AfterEach
    void stopCapturing() {
        ((Logger) LoggerFactory.getLogger(DeliveryAttempts.class)).detachAppender(lines);
    }

    @Test
    void theAttemptOfADeliveryIsLoggedInTheTraceOfItsEventAndARedeliveryInTheTraceOfItsRequest() {
        try (Receiver receiver = Receiver.https()) {
            String project = newProject();
            Map<String, Object> webhook = createWebhook(project, receiver.url("/hooks/traced"), "action.created");
            Kafka.PublicEventRecord event = Kafka.event("action.created", project, Events.actionCreated());
            Kafka.publishRaw(event.projectId(), event.json(), Map.of(Topics.EVENT_ID_HEADER, event.eventId().toString(),
                    Topics.EVENT_TYPE_HEADER, event.event(), TraceContexts.TRACEPARENT, TRACEPARENT));

            Receiver.Received request = receiver.await(1, WITHIN).get(0);
            String deliveryId = request.header("X-Service-Delivery");
            // spec 6.3: the delivery's headers, no trace header for the receiver
            assertThat(request.header("traceparent")).isNull();
            assertThat(storedTraceparent(deliveryId)).isEqualTo(TRACEPARENT);
            ILoggingEvent line = awaitLine("Delivery " + deliveryId + " attempt 1 of 4 succeeded");
            assertThat(line.getMDCPropertyMap()).containsEntry("traceId", TRACE_ID);
            assertThat(line.getMDCPropertyMap().get("spanId")).matches("[0-9a-f]{16}").isNotEqualTo("00f067aa0ba902b7");

            // a redelivery continues the trace of the request that asked for it
            String requestTraceId = "0af7651916cd43dd8448eb211c80319c";
            Map<String, Object> redelivery = Http.data(Http.json(client.post()
                    .uri("/api/v2/projects/" + project + "/webhooks/" + webhook.get("id") + "/deliveries/" + deliveryId
                            + "/redeliver")
                    .header("Authorization", bearer(project, "webhooks.write"))
                    .header(TraceContexts.TRACEPARENT, "00-" + requestTraceId + "-b7ad6b7169203331-01"), 202));
            String redeliveryId = (String) redelivery.get("id");
            List<Receiver.Received> both = receiver.await(2, WITHIN);
            assertThat(both.get(1).header("X-Service-Delivery")).isEqualTo(redeliveryId);
            assertThat(TraceContexts.traceId(storedTraceparent(redeliveryId))).isEqualTo(requestTraceId);
            ILoggingEvent again = awaitLine("Delivery " + redeliveryId + " attempt 1 of 4 succeeded");
            assertThat(again.getMDCPropertyMap()).containsEntry("traceId", requestTraceId);
        }
    }

    private String storedTraceparent(String deliveryId) {
        return db.sql("SELECT traceparent FROM deliveries WHERE id = :id").bind("id", UUID.fromString(deliveryId))
                .map(row -> row.get(0, String.class)).one().block(WITHIN);
    }

    private ILoggingEvent awaitLine(String text) {
        return org.awaitility.Awaitility.await(text).atMost(WITHIN).until(
                () -> List.copyOf(lines.list).stream().filter(e -> e.getFormattedMessage().contains(text)).findFirst(),
                java.util.Optional::isPresent).orElseThrow();
    }
}
