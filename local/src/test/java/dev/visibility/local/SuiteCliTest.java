package dev.visibility.local;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;

import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The developer commands without a suite: arguments, signatures, and the records they publish. */
class SuiteCliTest {

    static final Path EVENTS = Path.of(System.getProperty("events.schema.dir", "../docs/events"));
    static final SchemaRegistry SCHEMAS = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

    @Test
    void simulatedTrackingRunMatchesTheTrackingRunsSchema() throws IOException {
        UUID project = UUID.randomUUID();
        Instant now = Instant.parse("2026-11-22T07:00:00.123Z");
        Map<String, Object> run = TrackingRunSimulation.trackingRun(project, "acct-1", now, new Random(7));
        assertValid("tracking.runs", SuiteLocation.JSON.writeValueAsString(run));
        // a finished, completed run of today that completes now: the project's latest, so visibility.changed follows
        assertThat(run.get("finalStatus")).isEqualTo("completed");
        assertThat(run.get("capturedOn")).isEqualTo(LocalDate.ofInstant(now, ZoneOffset.UTC).toString());
        assertThat(run.get("completedAt")).isEqualTo("2026-11-22T07:00:00.123Z");
        assertThat(run.get("projectId")).isEqualTo(project.toString());
        List<?> samples = (List<?>) run.get("samples");
        assertThat(samples).hasSize(9);
        // executionIds are distinct within the run (schema), promptIds are the demo's
        Set<Object> executions = new HashSet<>();
        for (Object sample : samples) {
            executions.add(((Map<?, ?>) sample).get("executionId"));
        }
        assertThat(executions).hasSize(9);
        assertThat(((Map<?, ?>) samples.get(0)).get("promptId"))
                .isEqualTo(UUID.nameUUIDFromBytes((project + ":prompt:0").getBytes(StandardCharsets.UTF_8)).toString());
    }

    @Test
    void everySimulationIsANewRunWithNewIds() {
        UUID project = UUID.randomUUID();
        Map<String, Object> first = TrackingRunSimulation.trackingRun(project, "a", Instant.now(), new Random());
        Map<String, Object> second = TrackingRunSimulation.trackingRun(project, "a", Instant.now(), new Random());
        assertThat(second.get("runId")).isNotEqualTo(first.get("runId"));
        assertThat(second.get("eventId")).isNotEqualTo(first.get("eventId"));
    }

    @Test
    void simulatedRecommendationMatchesTheRecommendationsSchema() throws IOException {
        UUID project = UUID.randomUUID();
        Map<String, Object> record = RecommendationSimulation.recommendation(project, "acct-1", Instant.now(), new Random(3));
        assertValid("recommendations", SuiteLocation.JSON.writeValueAsString(record));
        assertThat(record.get("kind")).isEqualTo("upsert");
        assertThat((String) record.get("recommendationId")).matches("simulated-[0-9a-f]{8}");
    }

    @Test
    void simulatedAgentRunMatchesTheAgentsRunsSchemaAndEndsReviewed() throws IOException {
        UUID project = UUID.randomUUID();
        UUID run = UUID.randomUUID();
        List<Map<String, Object>> records = AgentRunSimulation.records(project, run, Instant.now());
        for (Map<String, Object> record : records) {
            assertValid("agents.runs", SuiteLocation.JSON.writeValueAsString(record));
        }
        // a higher revision last, so agents-service keeps the reviewed state and E8 shows the draft
        assertThat(records).extracting(r -> r.get("revision")).containsExactly(0L, 1L);
        assertThat(records.get(1)).containsEntry("reviewState", "completed").containsEntry("runId", run.toString());
        assertThat(records.get(1).get("draftOutput")).isNotNull();
    }

    @Test
    void simulatedMeasurementMatchesTheOutcomesMeasurementsSchema() throws IOException {
        UUID project = UUID.randomUUID();
        UUID action = UUID.randomUUID();
        Instant now = Instant.parse("2026-11-22T07:00:00.123Z");
        Map<String, Object> record = MeasurementSimulation.measurement(project, action, now, new Random(5));
        assertValid("outcomes.measurements", SuiteLocation.JSON.writeValueAsString(record));
        // a closed 14-day window: measured after intervenedAt + 14 days, not in flight
        assertThat(record.get("windowDays")).isEqualTo(14);
        assertThat(record.get("inFlight")).isEqualTo(false);
        assertThat(Instant.parse((String) record.get("measuredAt")))
                .isAfter(Instant.parse((String) record.get("intervenedAt")).plus(java.time.Duration.ofDays(14)))
                .isBefore(now);
        assertThat(record.get("actionId")).isEqualTo(action.toString());
        assertThat(MeasurementSimulation.measurement(project, action, now, new Random(5)).get("interventionId"))
                .isNotEqualTo(record.get("interventionId"));
    }

    @Test
    void signatureIsLowercaseHexHmacSha256OfTheBodyComparedWhole() {
        // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?"
        byte[] body = "what do ya want for nothing?".getBytes(StandardCharsets.UTF_8);
        String expected = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";
        assertThat(Signature.sign("Jefe", body)).isEqualTo(expected);
        assertThat(Signature.verifies("Jefe", body, expected)).isTrue();
        assertThat(Signature.verifies("Jefe", body, expected.toUpperCase())).isFalse();
        assertThat(Signature.verifies("Jefe", body, expected.substring(0, 63))).isFalse(); // spec 6.4.1: length mismatch fails
        assertThat(Signature.verifies("other", body, expected)).isFalse();
        assertThat(Signature.verifies("Jefe", body, null)).isFalse();
    }

    @Test
    void badArgumentsPrintTheUsageAndExit2() {
        for (String[] args : List.of(new String[] {}, new String[] {"simulate"}, new String[] {"simulate", "nothing"},
                new String[] {"simulate", "tracking-run", "--colour", "red"}, new String[] {"simulate", "tracking-run", "--project"},
                new String[] {"simulate", "tracking-run", "--project", "not-a-uuid"},
                new String[] {"simulate", "measurement", "--action", "not-a-uuid"},
                new String[] {"simulate", "measurement", "--colour", "red"},
                new String[] {"webhooks", "listen", "--events", "search-tracking.completed,action.deleted"},
                new String[] {"webhooks", "listen", "--forward-to", "ftp://example.com/x"},
                new String[] {"webhooks", "listen", "--events", "a", "--events", "b"})) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = SuiteCli.run(args, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true));
            assertThat(code).as(String.join(" ", args)).isEqualTo(2);
            assertThat(err.toString(StandardCharsets.UTF_8)).as(String.join(" ", args)).startsWith("error: ")
                    .contains("./suite webhooks listen [--events a,b] [--forward-to URL]");
        }
    }

    @Test
    void eventsDefaultToAllSixAndAreCheckedAgainstThem() {
        assertThat(WebhookListen.events(null)).containsExactly("search-tracking.completed", "visibility.changed", "action.created",
                "action.updated", "action.recommendation.created", "action.recommendation.updated");
        assertThat(WebhookListen.events("visibility.changed, search-tracking.completed,visibility.changed"))
                .containsExactly("visibility.changed", "search-tracking.completed");
        assertThatThrownBy(() -> WebhookListen.events("visibility.changed,")).isInstanceOf(CliException.class);
    }

    @Test
    void listenShowsTheRunOrActionOfADelivery() {
        String tracking = "{\"event\":\"visibility.changed\",\"data\":{\"runId\":\"r-1\",\"metrics\":{\"visibilityScore\":55.6}}}";
        assertThat(WebhookListen.summary(tracking.getBytes(StandardCharsets.UTF_8))).isEqualTo("  runId=r-1 visibilityScore=55.6");
        String action = "{\"event\":\"action.created\",\"data\":{\"actionId\":\"a-1\",\"action\":{\"title\":\"Fix it\"}}}";
        assertThat(WebhookListen.summary(action.getBytes(StandardCharsets.UTF_8))).isEqualTo("  actionId=a-1 \"Fix it\"");
        assertThat(WebhookListen.summary("not json".getBytes(StandardCharsets.UTF_8))).isEqualTo("  (body is not JSON)");
    }

    @Test
    void simulatedTrafficHitsMatchTheTrafficHitsSchema() throws IOException {
        UUID project = UUID.randomUUID();
        Instant now = Instant.parse("2026-11-22T07:00:00.123Z");
        Random random = new Random(11);
        int bots = 0;
        for (int i = 0; i < 200; i++) {
            Map<String, Object> hit = TrafficSimulation.hit(project, now, random);
            assertValid("traffic.hits", SuiteLocation.JSON.writeValueAsString(hit));
            // exactly one of botName and referrer (the consumer's rule beyond the schema)
            assertThat(hit.get("botName") == null).isNotEqualTo(hit.get("referrer") == null);
            bots += hit.get("botName") == null ? 0 : 1;
            assertThat(Instant.parse((String) hit.get("observedAt"))).isBetween(now.minusSeconds(3600), now);
        }
        assertThat(bots).isBetween(100, 190);
        assertThat(TrafficSimulation.hits(null)).isEqualTo(1000);
        assertThatThrownBy(() -> TrafficSimulation.hits("0")).isInstanceOf(CliException.class);
        assertThatThrownBy(() -> TrafficSimulation.hits("many")).isInstanceOf(CliException.class);
    }

    private static void assertValid(String name, String json) throws IOException {
        Schema schema = SCHEMAS.getSchema(Files.readString(EVENTS.resolve(name + ".schema.json")), InputFormat.JSON);
        assertThat(schema.validate(json, InputFormat.JSON,
                (context, schemaContext) -> context.executionConfig(config -> config.formatAssertionsEnabled(true))))
                .as("%s against %s.schema.json", json, name).isEmpty();
    }
}
