package dev.visibility.outcomes.whatworks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.outcomes.ingest.Assessment;
import dev.visibility.outcomes.support.Measurement;
import dev.visibility.outcomes.support.OutcomesTest;
import dev.visibility.outcomes.support.Schemas;
import dev.visibility.platform.events.OutcomeMeasured;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** E7 against the real service: the shape of spec 2.8 and rules 1–5. */
class WhatWorksTest extends OutcomesTest {

    private static final String WHAT_WORKS = "/intelligence/what-works";

    @Test
    void recommendationsCountClosedFourteenDayImprovementsPerChannelInTheWindow() {
        UUID project = UUID.randomUUID();
        OutcomeMeasured c1 = Measurement.of(project).channel("content").actionType("content_freshness").daysAgo(16).build();
        OutcomeMeasured c2 = Measurement.of(project).channel("content").actionType("content_freshness").daysAgo(20)
                .answerFetches(Measurement.up()).build();
        OutcomeMeasured c3 = Measurement.of(project).channel("content").actionType("prompt_gap").daysAgo(25).build();
        OutcomeMeasured pr1 = Measurement.of(project).channel("pr").actionType("citation_defence").daysAgo(18).build();
        OutcomeMeasured pr2 = Measurement.of(project).channel("pr").actionType("citation_defence").daysAgo(30).build();
        OutcomeMeasured docs = Measurement.of(project).channel("docs").actionType(null).daysAgo(19).build();
        // result available 41 days ago: only in the 90-day window
        OutcomeMeasured old = Measurement.of(project).channel("docs").daysAgo(55).build();
        publish(c1, c2, c3, pr1, pr2, docs, old,
                // not eligible: declined, no clear change, mixed, still open, improved only in a 30-day window
                Measurement.of(project).channel("content").citations(Measurement.down()).daysAgo(17).build(),
                Measurement.of(project).channel("content").citations(Measurement.flat()).daysAgo(17).build(),
                Measurement.of(project).channel("social").answerFetches(Measurement.down()).daysAgo(17).build(),
                Measurement.of(project).channel("social").daysAgo(5).inFlight().build(),
                Measurement.of(project).channel("social").window(30).daysAgo(35).build());
        awaitInterventions(project, 12);

        JsonNode body = ok(project, WHAT_WORKS);
        Schemas.assertValidResponse("e7-what-works", body.toString());
        JsonNode data = body.get("data");
        assertThat(fieldNames(data)).containsExactly("emptyState", "hasCorrelatedData", "recommendations", "window");
        assertThat(data.get("hasCorrelatedData").asBoolean()).isTrue();
        assertThat(data.get("emptyState").isNull()).isTrue();
        assertThat(data.get("window").get("days").asInt()).isEqualTo(30);
        List<JsonNode> recs = data.get("recommendations").valueStream().toList();
        assertThat(recs).extracting(r -> r.get("channel").asString()).containsExactly("content", "pr", "docs");
        assertThat(recs).extracting(r -> r.get("sampleSize").asInt()).containsExactly(3, 2, 1);
        for (JsonNode r : recs) {
            assertThat(fieldNames(r)).containsExactly("avgImpactScore", "avgMeasuredEffect", "channel", "lastCorrelatedAt",
                    "recommendation", "sampleSize");
        }
        JsonNode content = recs.get(0);
        assertThat(content.get("avgImpactScore").asDouble()).isEqualTo(round(
                (Assessment.impactScore(c1) + Assessment.impactScore(c2) + Assessment.impactScore(c3)) / 3));
        assertThat(content.get("avgMeasuredEffect").asDouble()).isEqualTo(round(
                (Assessment.measuredEffect(c1) + Assessment.measuredEffect(c2) + Assessment.measuredEffect(c3)) / 3));
        assertThat(Instant.parse(content.get("lastCorrelatedAt").asString())).isEqualTo(c1.intervenedAt().plus(Duration.ofDays(14)));
        assertThat(content.get("recommendation").asString()).contains("content").contains("3 improved")
                .contains("content freshness");

        JsonNode quarter = ok(project, WHAT_WORKS + "?days=90").get("data");
        assertThat(quarter.get("recommendations").valueStream().map(r -> r.get("channel").asString() + r.get("sampleSize").asInt())
                .toList()).containsExactly("content3", "docs2", "pr2");
        assertThat(ok(project, WHAT_WORKS + "?limit=1").get("data").get("recommendations").size()).isEqualTo(1);
    }

    @Test
    void withoutEvidenceTheEmptyStateCountsOnlyActionsCompletedInTheWindow() {
        Instant now = Instant.now();
        // completed actions, none marked as an intervention
        UUID unmarked = UUID.randomUUID();
        UUID action = UUID.randomUUID();
        publishActionEvent(unmarked, action, "action.created", "Add a comparison table", "accepted", now.minus(Duration.ofDays(3)));
        publishActionEvent(unmarked, action, "action.updated", null, "live", now.minus(Duration.ofDays(2)));
        await().atMost(WAIT).until(() -> count("SELECT count(*) FROM actions WHERE project_id = $1 AND completed_at IS NOT NULL",
                unmarked) == 1);
        JsonNode none = ok(unmarked, WHAT_WORKS).get("data");
        Schemas.assertValidResponse("e7-what-works", ok(unmarked, WHAT_WORKS).toString());
        assertThat(none.get("recommendations").size()).isZero();
        assertThat(none.get("hasCorrelatedData").asBoolean()).isFalse();
        assertThat(fieldNames(none.get("emptyState"))).containsExactly("counts", "message", "reason", "requirements");
        assertThat(none.get("emptyState").get("reason").asString()).isEqualTo("no_marked_interventions");
        assertCounts(none, 0, 0, 0);

        // marked interventions of completed actions: one still measuring, one declined; one more declined of an
        // action completed 100 days ago, and an improvement available 50 days ago: outside the 30-day cohort and window
        UUID project = UUID.randomUUID();
        UUID open = UUID.randomUUID();
        UUID declined = UUID.randomUUID();
        UUID earlier = UUID.randomUUID();
        publishActionEvent(project, open, "action.updated", "Ship the FAQ", "live", now.minus(Duration.ofDays(4)));
        publishActionEvent(project, earlier, "action.updated", "Old work", "live", now.minus(Duration.ofDays(100)));
        publish(Measurement.of(project).action(open).daysAgo(4).inFlight().build(),
                Measurement.of(project).action(earlier).citations(Measurement.down()).daysAgo(99).build(),
                Measurement.of(project).action(earlier).daysAgo(64).build());
        awaitInterventions(project, 3);
        awaitActions(project, 2);
        JsonNode measuring = ok(project, WHAT_WORKS).get("data");
        assertThat(measuring.get("emptyState").get("reason").asString()).isEqualTo("no_correlated_interventions");
        assertCounts(measuring, 1, 0, 0);

        publishActionEvent(project, declined, "action.updated", "Rewrite the docs intro", "live", now.minus(Duration.ofDays(1)));
        publish(Measurement.of(project).action(declined).citations(Measurement.down()).daysAgo(20).build());
        awaitInterventions(project, 4);
        awaitActions(project, 3);
        JsonNode declines = ok(project, WHAT_WORKS).get("data");
        assertThat(declines.get("emptyState").get("reason").asString()).isEqualTo("no_eligible_improvements");
        assertCounts(declines, 2, 1, 0);
        assertThat(declines.get("emptyState").get("requirements").size()).isPositive();
        // the 90-day window holds the improvement that became available 50 days ago
        assertThat(ok(project, WHAT_WORKS + "?days=90").get("data").get("emptyState").isNull()).isTrue();
    }

    private static void assertCounts(JsonNode data, int marked, int correlated, int recent) {
        JsonNode counts = data.get("emptyState").get("counts");
        assertThat(fieldNames(counts)).containsExactly("correlatedInterventions", "markedInterventions",
                "recentEligibleCorrelations");
        assertThat(counts.get("markedInterventions").asInt()).isEqualTo(marked);
        assertThat(counts.get("correlatedInterventions").asInt()).isEqualTo(correlated);
        assertThat(counts.get("recentEligibleCorrelations").asInt()).isEqualTo(recent);
    }

    @Test
    void everyBadParameterIs400NamingIt() {
        UUID project = UUID.randomUUID();
        Map<String, String> bad = Map.of("days=60", "days", "days=7", "days", "days=x", "days", "limit=0", "limit",
                "limit=21", "limit", "limit=ten", "limit", "limit=", "limit");
        bad.forEach((query, parameter) -> {
            Map<String, Object> body = error(project, WHAT_WORKS + "?" + query, 400);
            assertThat(body.get("message").toString()).as(query).contains("'" + parameter + "'");
        });
        ok(project, WHAT_WORKS + "?days=90&limit=20&other=1");
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
