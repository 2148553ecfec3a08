package dev.visibility.visibility.demo;

import java.time.Duration;
import java.time.LocalDate;
import java.util.UUID;

import dev.visibility.platform.testing.JsonShapes;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The records this service consumes, as its demo producer writes them, match the schemas
 * published under docs/events (tracking.runs, agentpicks.runs): the documents describe the
 * records the listeners actually read.
 */
class InputSchemasTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final DemoData demo = new DemoData(UUID.randomUUID(), "acct-demo", LocalDate.of(2026, 11, 22), Duration.ofDays(90));

    @Test
    void demoTrackingRunsMatchTheTrackingRunsSchema() {
        demo.trackingRuns(30, true).forEach(run -> JsonShapes.assertValidEvent("tracking.runs", JSON.writeValueAsString(run)));
    }

    @Test
    void demoAgentPicksRecordsMatchTheAgentPicksRunsSchema() {
        demo.agentPicksRuns().forEach(run -> run.records()
                .forEach(record -> JsonShapes.assertValidEvent("agentpicks.runs", JSON.writeValueAsString(record))));
    }
}
