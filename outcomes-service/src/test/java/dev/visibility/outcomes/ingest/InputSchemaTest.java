package dev.visibility.outcomes.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import dev.visibility.outcomes.support.Measurement;
import dev.visibility.outcomes.support.Schemas;
import dev.visibility.platform.events.OutcomeMeasured;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** The published schema docs/events/outcomes.measurements.schema.json accepts the records the contract accepts. */
class InputSchemaTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void recordsOfEveryKindMatchThePublishedSchema() {
        UUID project = UUID.randomUUID();
        for (OutcomeMeasured m : new OutcomeMeasured[] {Measurement.of(project).build(),
            Measurement.of(project).conversions(3, 9).answerFetches(Measurement.down()).actionType(null).build(),
            Measurement.of(project).citations(null).blind().unmatchedUrl().sensorGap().build(),
            Measurement.of(project).inFlight().window(90).build()}) {
            Schemas.assertValidEvent("outcomes.measurements", JSON.writeValueAsString(m));
        }
    }

    @Test
    void theSchemaRefusesWhatTheConsumerDeadLetters() {
        String good = JSON.writeValueAsString(Measurement.of(UUID.randomUUID()).build());
        assertThat(Schemas.validEvent("outcomes.measurements", good)).isTrue();
        assertThat(Schemas.validEvent("outcomes.measurements", good.replace("\"windowDays\":14", "\"windowDays\":10"))).isFalse();
        assertThat(Schemas.validEvent("outcomes.measurements", good.replace("\"channel\":\"content\",", ""))).isFalse();
        assertThat(Schemas.validEvent("outcomes.measurements", good.replace("\"pValue\":0.01", "\"pValue\":7"))).isFalse();
        assertThat(Schemas.validEvent("outcomes.measurements", good.replace("\"channel\":\"content\"", "\"channel\":\"Content!\"")))
                .isFalse();
    }
}
