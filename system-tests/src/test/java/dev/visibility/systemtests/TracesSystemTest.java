package dev.visibility.systemtests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import dev.visibility.platform.testing.Http;
import dev.visibility.platform.testing.Http.Answer;
import dev.visibility.systemtests.Receiver.Received;
import org.junit.jupiter.api.Test;

/**
 * Issue 23 (DESIGN.md, Operations): one trace runs from the request through the outbox and Kafka
 * to the webhook POST, and log lines carry its ids. A client's W3C {@code traceparent} on a create
 * request (E13's subscription, an action created through the gateway) reaches webhook-service's
 * log line of the delivery attempt that the request's {@code action.created} caused: gateway →
 * actions-service (its outbox row keeps the trace) → relay → {@code public.events} (the record's
 * header) → fan-out (the delivery row keeps it) → the attempt's span, whose ids the line carries.
 * The POST itself carries only the headers of spec 6.3 and {@code X-Service-Delivery}.
 */
class TracesSystemTest extends SystemTest {

    @Test
    void theTraceIdOfACreateRequestIsOnTheLogLineOfTheWebhookAttemptItCaused() {
        try (Receiver receiver = Receiver.answering(204)) {
            Map<String, Object> webhook = subscribe(project(), key(), receiver.url("/traced"), "action.created");
            try {
                String traceId = hex(16);
                String traceparent = "00-" + traceId + "-" + hex(8) + "-01";
                Answer created = Http.call(edge.domain.baseUrl(), "POST", "/api/v2/projects/" + project() + "/actions",
                        key(), Map.of("title", "Traced action " + traceId, "description", "Made to follow a trace",
                                "channels", List.of("content"), "priority", "low"),
                        Map.of("traceparent", traceparent));
                assertThat(created.status()).as(created.body()).isEqualTo(201);
                String actionId = (String) created.data().get("id");

                Received delivery = receiver.await(r -> actionId.equals(r.data().get("actionId")), 1, WITHIN).get(0);
                String deliveryId = delivery.header("X-Service-Delivery");
                // spec 6.3 lists the headers of a delivery: no trace header goes to the receiver
                assertThat(delivery.header("traceparent")).isNull();

                String attemptLine = "Delivery " + deliveryId + " attempt 1 of 4 succeeded";
                String line = Waits.until("webhook-service logs " + attemptLine, WITHIN,
                        () -> lines(edge.webhook).stream().filter(l -> l.contains(attemptLine)).findFirst().orElse(""),
                        l -> !l.isEmpty());
                assertThat(line).as("the attempt's log line carries the request's trace id").contains(traceId);
            } finally {
                unsubscribe(project(), key(), webhook.get("id"));
            }
        }
    }

    private static List<String> lines(ServiceProcess process) {
        try {
            return Files.readAllLines(process.log(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String hex(int bytes) {
        byte[] random = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(random);
        random[0] |= 1; // never all zeros (an invalid id)
        return HexFormat.of().formatHex(random);
    }
}
