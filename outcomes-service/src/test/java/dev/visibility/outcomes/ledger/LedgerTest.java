package dev.visibility.outcomes.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import dev.visibility.outcomes.support.Measurement;
import dev.visibility.outcomes.support.OutcomesTest;
import dev.visibility.outcomes.support.Schemas;
import dev.visibility.platform.cursor.CursorCodec;
import dev.visibility.platform.events.OutcomeMeasured;
import dev.visibility.platform.testing.TestTokens;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** E2 against the real service: the shape of spec 2.3, the scoreboard, the result filter, keyset paging and cursors. */
class LedgerTest extends OutcomesTest {

    private static final String LEDGER = "/outcomes/ledger";

    /** One intervention of each kind the ledger can show; answers the improved one. */
    private OutcomeMeasured seedVariety(UUID project) {
        UUID action = UUID.randomUUID();
        publishActionEvent(project, action, "action.created", "Refresh the pricing page", "suggested", Instant.now());
        OutcomeMeasured improved = Measurement.of(project).action(action).answerFetches(Measurement.flat()).conversions(10, 25)
                .window(14).daysAgo(20).build();
        publish(improved,
                Measurement.of(project).intervention(improved.interventionId()).action(action).window(30)
                        .intervenedAt(improved.intervenedAt()).inFlight().build(),
                Measurement.of(project).citations(Measurement.down()).daysAgo(40).unmatchedUrl().build(),
                Measurement.of(project).citations(Measurement.flat()).daysAgo(50).build(),
                Measurement.of(project).answerFetches(Measurement.down()).daysAgo(60).build(),
                Measurement.of(project).citations(null).blind().daysAgo(70).build(),
                Measurement.of(project).daysAgo(3).inFlight().sensorGap().build(),
                Measurement.of(project).window(7).citations(null).answerFetches(null).daysAgo(8).build());
        awaitInterventions(project, 7);
        // the title comes from the action event, which another consumer stores: wait for it too
        awaitActions(project, 1);
        return improved;
    }

    @Test
    void theAnswerHasExactlyTheFieldsOfSpec23AndImpactWindowsOnlyWhenAsked() {
        UUID project = UUID.randomUUID();
        OutcomeMeasured improved = seedVariety(project);

        JsonNode body = ok(project, LEDGER + "?days=90&impactWindows=true");
        Schemas.assertValidResponse("e2-ledger", body.toString());
        JsonNode data = body.get("data");
        assertThat(fieldNames(data)).containsExactly("attributedConversions", "impactWindows", "items", "pagination",
                "scoreboard", "window");
        assertThat(fieldNames(data.get("scoreboard"))).containsExactly("combinedCitationLift", "conclusiveCount",
                "declinedCount", "improvedCount", "improvementRate", "mixedCount", "noClearChangeCount", "stillMeasuringCount",
                "unmeasuredCount");
        assertThat(fieldNames(data.get("pagination"))).containsExactly("hasMore", "nextCursor", "pageSize", "totalCount");
        assertThat(fieldNames(data.get("window"))).containsExactly("dateFrom", "dateTo", "days");
        assertThat(data.get("impactWindows").valueStream().map(w -> w.get("windowDays").asInt()).toList())
                .containsExactly(7, 14, 30, 90);
        for (JsonNode w : data.get("impactWindows")) {
            assertThat(fieldNames(w)).containsExactly("answerFetchDelta", "answerFetchEvidenceQuality", "citationDelta",
                    "evidenceQuality", "presenceDelta", "windowDays");
        }
        assertThat(data.get("attributedConversions").valueStream().map(w -> w.get("windowDays").asInt()).toList())
                .containsExactly(30, 90);
        assertThat(fieldNames(data.get("attributedConversions").get(0))).containsExactly("attributionLabel", "conversions",
                "dateFrom", "dateTo", "state", "windowDays");

        JsonNode item = data.get("items").valueStream()
                .filter(i -> i.get("interventionId").asString().equals(improved.interventionId().toString())).findFirst().orElseThrow();
        assertThat(fieldNames(item)).containsExactly("actionId", "actionTitle", "analyticsComparison", "answerFetchConfidence",
                "answerFetchDelta", "answerFetchesAfter", "answerFetchesBefore", "citationConfidence", "citationDelta",
                "citationsAfter", "citationsBefore", "evidence", "interventionId", "measuredAt", "result", "resultAvailableAt");
        assertThat(fieldNames(item.get("analyticsComparison"))).containsExactly("after", "before", "connectionId",
                "conversionsCovered", "definitionHash", "generation", "provider", "recorded", "sessionsCovered");
        assertThat(fieldNames(item.get("analyticsComparison").get("recorded"))).containsExactly("after", "before");
        assertThat(fieldNames(item.get("analyticsComparison").get("before"))).containsExactly("conversions", "sessions");
        assertThat(fieldNames(item.get("evidence"))).containsExactly("answerFetches", "citations", "rule");
        assertThat(fieldNames(item.get("evidence").get("citations"))).containsExactly("after", "afterActiveDays",
                "afterProbeAnswers", "before", "beforeActiveDays", "beforeProbeAnswers", "direction", "pValue");
        assertThat(fieldNames(item.get("evidence").get("rule"))).containsExactly("minActiveDays", "minCount",
                "minRelativeChange", "significance");
        assertThat(item.get("result").asString()).isEqualTo("improved");
        assertThat(item.get("actionTitle").asString()).isEqualTo("Refresh the pricing page");
        assertThat(item.get("citationsBefore").asInt()).isEqualTo(10);
        assertThat(item.get("citationDelta").asInt()).isEqualTo(10);
        assertThat(item.get("answerFetchDelta").asInt()).isEqualTo(1);
        assertThat(item.get("citationConfidence").asString()).isEqualTo("high");
        assertThat(item.get("answerFetchConfidence").asString()).isEqualTo("low");
        assertThat(Instant.parse(item.get("resultAvailableAt").asString()))
                .isEqualTo(improved.intervenedAt().plus(Duration.ofDays(14)));
        assertThat(Instant.parse(item.get("measuredAt").asString())).isEqualTo(improved.measuredAt());

        // the intervention with only a 7-day window: still measuring, nothing measured shown as a number
        JsonNode open = data.get("items").valueStream().filter(i -> i.get("evidence").isNull()).findFirst().orElseThrow();
        assertThat(open.get("result").asString()).isEqualTo("still_measuring");
        assertThat(open.get("citationsBefore").isNull()).isTrue();
        assertThat(open.get("actionTitle").asString()).isEqualTo(LedgerController.UNTITLED);

        JsonNode plain = ok(project, LEDGER + "?days=90").get("data");
        assertThat(fieldNames(plain)).containsExactly("attributedConversions", "items", "pagination", "scoreboard", "window");
        Schemas.assertValidResponse("e2-ledger", ok(project, LEDGER + "?impactWindows=false").toString());
    }

    @Test
    void scoreboardCountsAndEveryResultFilterAgreeWithTheItems() {
        UUID project = UUID.randomUUID();
        seedVariety(project);
        JsonNode data = ok(project, LEDGER + "?days=90&pageSize=100").get("data");
        JsonNode s = data.get("scoreboard");
        assertThat(s.get("improvedCount").asInt()).isEqualTo(1);
        assertThat(s.get("declinedCount").asInt()).isEqualTo(1);
        assertThat(s.get("mixedCount").asInt()).isEqualTo(1);
        assertThat(s.get("noClearChangeCount").asInt()).isEqualTo(1);
        assertThat(s.get("stillMeasuringCount").asInt()).isEqualTo(2);
        assertThat(s.get("unmeasuredCount").asInt()).isEqualTo(1);
        assertThat(s.get("conclusiveCount").asInt()).as("improved + mixed + declined").isEqualTo(3);
        assertThat(s.get("improvementRate").asDouble()).isEqualTo(0.3333);
        // measured interventions with citations: 10→20, 20→8, 10→11, 10→20 (the mixed one)
        assertThat(s.get("combinedCitationLift").asDouble()).isEqualTo(Math.round((59.0 - 50.0) / 50.0 * 10_000) / 10_000.0);
        assertThat(data.get("pagination").get("totalCount").asInt()).isEqualTo(7).isEqualTo(data.get("items").size());

        Map<String, Integer> expected = Map.ofEntries(Map.entry("measured", 4), Map.entry("conclusive", 3),
                Map.entry("in_flight", 3), Map.entry("blind", 1), Map.entry("unmatched_url", 1), Map.entry("sensor_gap", 1),
                Map.entry("improved", 1), Map.entry("mixed", 1), Map.entry("no_clear_change", 1), Map.entry("declined", 1),
                Map.entry("still_measuring", 2), Map.entry("unmeasured", 1));
        assertThat(expected.keySet()).containsExactlyInAnyOrderElementsOf(LedgerController.RESULT_FILTERS);
        expected.forEach((filter, count) -> {
            JsonNode filtered = ok(project, LEDGER + "?days=90&pageSize=100&result=" + filter).get("data");
            assertThat(filtered.get("items").size()).as(filter).isEqualTo(count);
            assertThat(filtered.get("pagination").get("totalCount").asInt()).as(filter).isEqualTo(count);
            assertThat(filtered.get("scoreboard")).as("the scoreboard covers the window, not the filter").isEqualTo(s);
        });

        // the reporting window selects by the day the change shipped: 7 days hold only the 3-day-old intervention
        JsonNode week = ok(project, LEDGER + "?days=7").get("data");
        assertThat(week.get("items").size()).isEqualTo(1);
        assertThat(week.get("scoreboard").get("stillMeasuringCount").asInt()).isEqualTo(1);
        assertThat(week.get("window").get("dateTo").asString()).isEqualTo(LocalDate.now(ZoneOffset.UTC).toString());
        assertThat(week.get("window").get("dateFrom").asString()).isEqualTo(LocalDate.now(ZoneOffset.UTC).minusDays(6).toString());
    }

    @Test
    void attributedConversionsCoverTheFixed30And90DayWindowsAndAreNullUntilMeasured() {
        UUID project = UUID.randomUUID();
        JsonNode empty = ok(project, LEDGER).get("data");
        for (JsonNode w : empty.get("attributedConversions")) {
            assertThat(w.get("conversions").isNull()).as("an unmeasured window is null, never 0").isTrue();
            assertThat(w.get("state").asString()).isEqualTo("unmeasured");
        }
        assertThat(empty.get("items").size()).isZero();
        assertThat(empty.get("scoreboard").get("improvementRate").asDouble()).isZero();

        // a 30-day window that closed 5 days ago with conversions 10 → 25, and a 90-day one still open
        UUID intervention = UUID.randomUUID();
        Instant at = Instant.now().minus(Duration.ofDays(35));
        publish(Measurement.of(project).intervention(intervention).intervenedAt(at).window(30).conversions(10, 25).build(),
                Measurement.of(project).intervention(intervention).intervenedAt(at).window(90).conversions(10, 40).inFlight().build());
        awaitInterventions(project, 1);
        List<JsonNode> windows = ok(project, LEDGER).get("data").get("attributedConversions").valueStream().toList();
        assertThat(windows.get(0).get("windowDays").asInt()).isEqualTo(30);
        assertThat(windows.get(0).get("conversions").asLong()).isEqualTo(15);
        assertThat(windows.get(0).get("state").asString()).isEqualTo("measured");
        assertThat(windows.get(0).get("dateFrom").asString()).isEqualTo(LocalDate.now(ZoneOffset.UTC).minusDays(29).toString());
        assertThat(windows.get(1).get("windowDays").asInt()).isEqualTo(90);
        assertThat(windows.get(1).get("conversions").isNull()).isTrue();
    }

    @Test
    void keysetPagingWalksEveryItemOnceNewestFirst() {
        UUID project = UUID.randomUUID();
        List<OutcomeMeasured> records = new ArrayList<>();
        Instant base = Instant.now().minus(Duration.ofDays(25));
        for (int i = 0; i < 23; i++) {
            // pairs with the same time: the id breaks the tie
            records.add(Measurement.of(project).intervenedAt(base.minus(Duration.ofHours(i / 2))).build());
        }
        publish(records);
        awaitInterventions(project, 23);
        Set<String> seen = new HashSet<>();
        List<String> order = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            JsonNode data = ok(project, LEDGER + "?pageSize=5" + (cursor == null ? "" : "&cursor=" + cursor)).get("data");
            pages++;
            for (JsonNode item : data.get("items")) {
                assertThat(seen.add(item.get("interventionId").asString())).isTrue();
                order.add(item.get("resultAvailableAt").asString() + "|" + item.get("interventionId").asString());
            }
            assertThat(data.get("pagination").get("totalCount").asInt()).isEqualTo(23);
            assertThat(data.get("pagination").get("pageSize").asInt()).isEqualTo(5);
            boolean hasMore = data.get("pagination").get("hasMore").asBoolean();
            cursor = hasMore ? data.get("pagination").get("nextCursor").asString() : null;
            if (!hasMore) {
                assertThat(data.get("pagination").get("nextCursor").isNull()).isTrue();
            }
        } while (cursor != null);
        assertThat(pages).isEqualTo(5);
        assertThat(seen).hasSize(23);
        List<String> sorted = new ArrayList<>(order);
        sorted.sort((a, b) -> Instant.parse(b.split("\\|")[0]).compareTo(Instant.parse(a.split("\\|")[0])) != 0
                ? Instant.parse(b.split("\\|")[0]).compareTo(Instant.parse(a.split("\\|")[0]))
                : b.split("\\|")[1].compareTo(a.split("\\|")[1])); // PostgreSQL orders uuids by their bytes
        assertThat(order).isEqualTo(sorted);
    }

    @Test
    void aCursorOfAnotherScopeOrTamperedIs400AndAfter48HoursIs400CursorExpired() {
        UUID project = UUID.randomUUID();
        List<OutcomeMeasured> records = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            records.add(Measurement.of(project).daysAgo(20 + i).build());
        }
        publish(records);
        awaitInterventions(project, 4);
        String cursor = ok(project, LEDGER + "?pageSize=2&result=improved").get("data").get("pagination").get("nextCursor")
                .asString();
        assertThat(ok(project, LEDGER + "?pageSize=2&result=improved&cursor=" + cursor).get("data").get("items").size())
                .isEqualTo(2);
        for (String other : List.of("?pageSize=3&result=improved", "?pageSize=2", "?pageSize=2&result=measured",
                "?pageSize=2&result=improved&days=90")) {
            Map<String, Object> body = error(project, LEDGER + other + "&cursor=" + cursor, 400);
            assertThat(body.get("message").toString()).as(other).contains("cursor").contains("another scope");
            assertThat(body).doesNotContainKey("reason");
        }
        UUID otherProject = UUID.randomUUID();
        assertThat(error(otherProject, LEDGER + "?pageSize=2&result=improved&cursor=" + cursor, 400).get("message").toString())
                .contains("cursor");
        String tampered = cursor.substring(0, 5) + (cursor.charAt(5) == 'A' ? 'B' : 'A') + cursor.substring(6);
        assertThat(error(project, LEDGER + "?pageSize=2&result=improved&cursor=" + tampered, 400).get("message").toString())
                .contains("cursor");

        // a cursor issued 48 hours ago (same key, same scope) has expired; one issued 47 hours ago has not
        String scope = CursorCodec.fingerprint("outcomes-ledger", project, 30, "improved", 2);
        String position = LocalDate.now(ZoneOffset.UTC) + "|" + Instant.now() + "|" + UUID.randomUUID();
        String old = new CursorCodec(TestTokens.CURSOR_SECRET.getBytes(StandardCharsets.UTF_8),
                Clock.fixed(Instant.now().minus(Duration.ofHours(48)).minusSeconds(5), ZoneOffset.UTC)).encode(scope, position);
        Map<String, Object> expired = error(project, LEDGER + "?pageSize=2&result=improved&cursor=" + old, 400);
        assertThat(expired).containsEntry("reason", "cursor_expired").containsEntry("error", "invalid_request");
        assertThat(expired.get("message").toString()).contains("cursor");
        String young = new CursorCodec(TestTokens.CURSOR_SECRET.getBytes(StandardCharsets.UTF_8),
                Clock.fixed(Instant.now().minus(Duration.ofHours(47)), ZoneOffset.UTC)).encode(scope, position);
        ok(project, LEDGER + "?pageSize=2&result=improved&cursor=" + young);
    }

    @Test
    void everyBadParameterIs400NamingIt() {
        UUID project = UUID.randomUUID();
        Map<String, String> bad = Map.ofEntries(Map.entry("days=14", "days"), Map.entry("days=abc", "days"),
                Map.entry("days=", "days"), Map.entry("days=3650000000000", "days"), Map.entry("pageSize=0", "pageSize"),
                Map.entry("pageSize=101", "pageSize"), Map.entry("pageSize=ten", "pageSize"), Map.entry("result=good", "result"),
                Map.entry("result=IMPROVED", "result"), Map.entry("impactWindows=yes", "impactWindows"),
                Map.entry("cursor=abc", "cursor"), Map.entry("cursor=" + "a".repeat(2001), "cursor"));
        bad.forEach((query, parameter) -> {
            Map<String, Object> body = error(project, LEDGER + "?" + query, 400);
            assertThat(body).as(query).containsEntry("error", "invalid_request");
            assertThat(body.get("message").toString()).as(query).contains("'" + parameter + "'");
        });
        ok(project, LEDGER + "?unknown=1&days=365&pageSize=100&impactWindows=TRUE");
    }
}
