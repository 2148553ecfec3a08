package dev.visibility.outcomes.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import dev.visibility.outcomes.ingest.Assessment;
import dev.visibility.outcomes.support.OutcomesTest;
import dev.visibility.outcomes.support.Schemas;
import dev.visibility.platform.events.OutcomeMeasured;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The local demo, published through the real topic for a fresh project: at least 150 interventions
 * over a year, all six results, open and closed windows, and closed 14-day improvements on several
 * channels, so that E2 shows every result and E7 has recommendations.
 */
class DemoMeasurementsTest extends OutcomesTest {

    @Test
    void theDemoCoversEveryResultAndWhatWorksHasRecommendations() {
        UUID project = UUID.randomUUID();
        Instant now = Instant.now();
        List<OutcomeMeasured> records = new DemoMeasurements(project, now).records(180, List.of());
        Validator validator = Validation.buildDefaultValidatorFactory().getValidator();
        for (OutcomeMeasured m : records) {
            assertThat(validator.validate(m)).as("%s", m).isEmpty();
            m.validate();
        }
        Schemas.assertValidEvent("outcomes.measurements", mapper.writeValueAsString(records.get(0)));
        List<OutcomeMeasured> canonical = records.stream().filter(m -> m.windowDays() == 14).toList();
        assertThat(canonical).hasSize(180);
        assertThat(canonical.stream().map(Assessment::result).collect(Collectors.toSet()))
                .containsExactlyInAnyOrderElementsOf(Assessment.RESULTS);
        assertThat(canonical.stream().map(OutcomeMeasured::intervenedAt).min(Instant::compareTo).orElseThrow())
                .isBefore(now.minus(Duration.ofDays(330)));
        Set<String> recentImprovedChannels = canonical.stream()
                .filter(m -> Assessment.IMPROVED.equals(Assessment.result(m)))
                .filter(m -> m.windowEnd().isAfter(now.minus(Duration.ofDays(29))))
                .map(OutcomeMeasured::channel).collect(Collectors.toSet());
        assertThat(recentImprovedChannels).hasSizeGreaterThanOrEqualTo(3);
        assertThat(records).anyMatch(OutcomeMeasured::inFlight).anyMatch(m -> !m.inFlight());

        publish(records);
        awaitInterventions(project, 180);
        await90DayWindows(project, records);
        JsonNode scoreboard = ok(project, "/outcomes/ledger?days=365").get("data").get("scoreboard");
        for (String count : List.of("improvedCount", "mixedCount", "noClearChangeCount", "declinedCount", "stillMeasuringCount",
                "unmeasuredCount")) {
            assertThat(scoreboard.get(count).asInt()).as(count).isPositive();
        }
        JsonNode whatWorks = ok(project, "/intelligence/what-works").get("data");
        assertThat(whatWorks.get("hasCorrelatedData").asBoolean()).isTrue();
        assertThat(whatWorks.get("recommendations").size()).isGreaterThanOrEqualTo(3);
        JsonNode impact = ok(project, "/outcomes/ledger?days=365&impactWindows=true").get("data").get("impactWindows");
        assertThat(impact.valueStream().map(w -> w.get("evidenceQuality").asString()).toList()).doesNotContain("unmeasured");
        assertThat(ok(project, "/outcomes/ledger?days=365").get("data").get("attributedConversions").get(1)
                .get("state").asString()).isEqualTo("measured");
    }

    private void await90DayWindows(UUID project, List<OutcomeMeasured> records) {
        OutcomeMeasured last = records.get(records.size() - 1);
        awaitMeasurement(last);
    }
}
