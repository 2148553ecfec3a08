package dev.visibility.local;

import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import org.apache.kafka.clients.producer.RecordMetadata;
import tools.jackson.databind.JsonNode;

/**
 * {@code ./suite simulate measurement}: the closed 14-day window of a new intervention, published
 * onto {@code outcomes.measurements} as a measurement job publishes it (schema
 * {@code docs/events/outcomes.measurements.schema.json}, key projectId, headers eventId and
 * eventType). The intervention shipped 15 days ago and its citations rose significantly, so it is
 * an {@code improved} result in E2 and counts for its channel in E7. It ships {@code --action}, else
 * a live action of the project found through the gateway with the demo key, else a new action id.
 */
final class MeasurementSimulation {

    static final String TOPIC = "outcomes.measurements";
    static final String RECORD_TYPE = "OutcomeMeasured";
    private static final String[] CHANNELS = {"content", "technical", "pr", "social", "docs"};

    private final SuiteLocation suite;

    MeasurementSimulation(SuiteLocation suite) {
        this.suite = suite;
    }

    void run(SuiteCli.Options options, PrintStream out) {
        UUID actionId = options.get("--action") != null ? actionOption(options.get("--action")) : null;
        UUID projectId = TrackingRunSimulation.projectOption(options.get("--project"), suite);
        suite.requireKafka();
        if (actionId == null) {
            actionId = liveAction(projectId);
        }
        Map<String, Object> record = measurement(projectId, actionId, Instant.now(), new Random());
        RecordMetadata sent = InternalProducer.publish(suite.kafkaBootstrap(), TOPIC, projectId.toString(),
                (String) record.get("eventId"), RECORD_TYPE, SuiteLocation.JSON.writeValueAsString(record));
        out.printf("measurement of intervention %s (action %s, channel %s, 14-day window closed) published onto %s"
                + " (project %s, partition %d, offset %d)%n", record.get("interventionId"), actionId, record.get("channel"), TOPIC,
                projectId, sent.partition(), sent.offset());
        out.println("  it is an improved result in GET " + suite.gatewayUrl() + "/api/v2/projects/" + projectId
                + "/outcomes/ledger?result=improved and counts in /intelligence/what-works");
    }

    /** A closed 14-day window, shipped 15 days ago: citations 12 → 21 (p 0.004), answer fetches 40 → 52 (p 0.03). */
    static Map<String, Object> measurement(UUID projectId, UUID actionId, Instant now, Random random) {
        Instant at = now.minus(Duration.ofDays(15)).truncatedTo(ChronoUnit.MILLIS);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("eventId", UUID.randomUUID().toString());
        m.put("projectId", projectId.toString());
        m.put("interventionId", UUID.randomUUID().toString());
        m.put("actionId", actionId.toString());
        m.put("channel", CHANNELS[random.nextInt(CHANNELS.length)]);
        m.put("actionType", "content_freshness");
        m.put("intervenedAt", at.toString());
        m.put("windowDays", 14);
        m.put("measuredAt", at.plus(Duration.ofDays(14)).plus(Duration.ofHours(2)).toString());
        m.put("inFlight", false);
        m.put("blind", false);
        m.put("unmatchedUrl", false);
        m.put("sensorGap", false);
        m.put("citations", dimension(12, 21, 7, 11, 0.004));
        m.put("answerFetches", dimension(40, 52, 12, 13, 0.03));
        m.put("rule", Map.of("significance", 0.05, "minCount", 5, "minActiveDays", 3, "minRelativeChange", 0.1));
        m.put("analyticsComparison", null);
        return m;
    }

    private static Map<String, Object> dimension(int before, int after, int activeBefore, int activeAfter, double p) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("before", before);
        d.put("after", after);
        d.put("beforeActiveDays", activeBefore);
        d.put("afterActiveDays", activeAfter);
        d.put("beforeProbeAnswers", 280);
        d.put("afterProbeAnswers", 280);
        d.put("direction", 1);
        d.put("pValue", p);
        return d;
    }

    private static UUID actionOption(String value) {
        try {
            UUID id = UUID.fromString(value);
            if (id.toString().equalsIgnoreCase(value)) {
                return id;
            }
        } catch (IllegalArgumentException e) {
            // reported below
        }
        throw new CliException(2, "--action must be an action id (a UUID), not " + value);
    }

    /** A live action of the project (E3 through the gateway with the demo key), or a new id when none is found. */
    private UUID liveAction(UUID projectId) {
        String key = suite.credential("apiKey");
        if (key != null) {
            try {
                HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(suite.gatewayUrl()
                        + "/api/v2/projects/" + projectId + "/actions/list?status=live&pageSize=1"))
                        .header("Authorization", "Bearer " + key).timeout(Duration.ofSeconds(10)).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    JsonNode first = SuiteLocation.JSON.readTree(response.body()).path("data").path("actions").path(0).path("id");
                    if (first.isString()) {
                        return UUID.fromString(first.asString());
                    }
                }
            } catch (java.io.IOException | RuntimeException e) {
                // no live action found: a new id below
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return UUID.randomUUID();
    }
}
