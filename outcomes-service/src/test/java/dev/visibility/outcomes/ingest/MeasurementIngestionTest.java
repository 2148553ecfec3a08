package dev.visibility.outcomes.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import dev.visibility.outcomes.support.Measurement;
import dev.visibility.outcomes.support.OutcomesTest;
import dev.visibility.platform.events.OutcomeMeasured;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.testing.TestKafka;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Ingestion of outcomes.measurements and public.events against the real broker and database: the
 * result of each intervention (README, "Results"), replacement by newer measurements, idempotent
 * redelivery, the dead-letter topic, and rollups that always equal a fresh aggregation of the rows.
 */
class MeasurementIngestionTest extends OutcomesTest {

    private String result(UUID intervention) {
        return db.sql("SELECT result FROM interventions WHERE intervention_id = :id").bind("id", intervention)
                .map(row -> row.get(0, String.class)).one().block();
    }

    @Test
    void eachOfTheSixResultsIsDerivedFromTheFourteenDayWindow() {
        UUID project = UUID.randomUUID();
        OutcomeMeasured improved = Measurement.of(project).build();
        OutcomeMeasured mixed = Measurement.of(project).answerFetches(Measurement.down()).build();
        OutcomeMeasured flat = Measurement.of(project).citations(Measurement.flat()).build();
        OutcomeMeasured declined = Measurement.of(project).citations(Measurement.down()).answerFetches(Measurement.flat()).build();
        OutcomeMeasured open = Measurement.of(project).daysAgo(5).inFlight().build();
        OutcomeMeasured unmeasured = Measurement.of(project).citations(null).blind().sensorGap().build();
        // only a 7-day window so far: the 14-day result is not in yet
        OutcomeMeasured sevenDay = Measurement.of(project).window(7).daysAgo(9)
                .citations(new OutcomeMeasured.Dimension(5.0, 9.0, 5, 6, 40.0, 40.0, 1, 0.02)).build();
        // below the rule's minimum count: a rise that does not count
        OutcomeMeasured small = Measurement.of(project).citations(new OutcomeMeasured.Dimension(1.0, 4.0, 3, 3, 50.0, 50.0, 1, 0.01))
                .build();
        publish(improved, mixed, flat, declined, open, unmeasured, sevenDay, small);
        awaitInterventions(project, 8);

        assertThat(result(improved.interventionId())).isEqualTo("improved");
        assertThat(result(mixed.interventionId())).isEqualTo("mixed");
        assertThat(result(flat.interventionId())).isEqualTo("no_clear_change");
        assertThat(result(declined.interventionId())).isEqualTo("declined");
        assertThat(result(open.interventionId())).isEqualTo("still_measuring");
        assertThat(result(unmeasured.interventionId())).isEqualTo("unmeasured");
        assertThat(result(sevenDay.interventionId())).isEqualTo("still_measuring");
        assertThat(result(small.interventionId())).isEqualTo("no_clear_change");
        assertThat(count("SELECT count(*) FROM interventions WHERE project_id = $1 AND in_flight", project))
                .as("the open window and the intervention without a 14-day measurement").isEqualTo(2);
        assertThat(count("SELECT count(*) FROM interventions WHERE project_id = $1 AND blind AND sensor_gap", project)).isEqualTo(1);
        assertRollupsMatchTheRows(project);
    }

    @Test
    void aNewerMeasurementOfTheWindowReplacesTheOlderAndALateOlderOneChangesNothing() {
        UUID project = UUID.randomUUID();
        UUID intervention = UUID.randomUUID();
        Instant at = Instant.now().minus(Duration.ofDays(40));
        OutcomeMeasured open = Measurement.of(project).intervention(intervention).intervenedAt(at).inFlight().build();
        OutcomeMeasured closed = Measurement.of(project).intervention(intervention).intervenedAt(at).citations(Measurement.down())
                .build();
        OutcomeMeasured restated = Measurement.of(project).intervention(intervention).intervenedAt(at)
                .measuredAt(closed.measuredAt().plus(Duration.ofDays(1))).build();
        publish(open);
        awaitMeasurement(open);
        assertThat(result(intervention)).isEqualTo("still_measuring");

        publish(closed);
        awaitMeasurement(closed);
        assertThat(result(intervention)).isEqualTo("declined");

        publish(restated);
        awaitMeasurement(restated);
        assertThat(result(intervention)).isEqualTo("improved");

        // the open measurement again, under a new eventId (a late retry of the job): older, ignored
        OutcomeMeasured late = Measurement.of(project).intervention(intervention).intervenedAt(at).inFlight()
                .measuredAt(open.measuredAt()).build();
        OutcomeMeasured sentinel = Measurement.of(project).build();
        publish(late, sentinel);
        awaitMeasurement(sentinel);
        assertThat(result(intervention)).isEqualTo("improved");
        assertThat(count("SELECT count(*) FROM processed_events WHERE event_id = $1", late.eventId())).isEqualTo(1);
        assertThat(count("SELECT sum(improved) FROM scoreboard_daily WHERE project_id = $1", project)).isEqualTo(2);
        assertThat(count("SELECT sum(declined) + sum(still_measuring) FROM scoreboard_daily WHERE project_id = $1", project))
                .isZero();
        assertThat(count("SELECT sum(improved) FROM what_works_daily WHERE project_id = $1", project)).isEqualTo(2);
        assertRollupsMatchTheRows(project);
    }

    @Test
    void aRedeliveredRecordChangesNothing() {
        UUID project = UUID.randomUUID();
        OutcomeMeasured first = Measurement.of(project).conversions(10, 25).window(30).daysAgo(35).build();
        publish(first);
        awaitMeasurement(first);
        Map<String, Object> before = rollups(project);

        // the same record twice more, and a different record under the same eventId: all skipped
        OutcomeMeasured sameId = Measurement.of(project).intervention(first.interventionId()).window(30)
                .intervenedAt(first.intervenedAt()).measuredAt(first.measuredAt().plus(Duration.ofDays(2)))
                .citations(Measurement.down()).eventId(first.eventId()).build();
        // the sentinel belongs to another project, on this project's partition: once it is applied, so are the others
        OutcomeMeasured sentinel = Measurement.of(UUID.randomUUID()).build();
        TestKafka.publish(Topics.OUTCOMES_MEASUREMENTS, project.toString(), mapper.writeValueAsString(first),
                mapper.writeValueAsString(first), mapper.writeValueAsString(sameId), mapper.writeValueAsString(sentinel));
        awaitMeasurement(sentinel);

        assertThat(count("SELECT count(*) FROM measurements WHERE intervention_id = $1 AND event_id = $2",
                first.interventionId(), first.eventId())).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM measurements WHERE intervention_id = $1 AND measured_at = $2",
                first.interventionId(), first.measuredAt())).as("the changed record under the same eventId was not applied")
                .isEqualTo(1);
        assertThat(rollups(project)).isEqualTo(before);
        assertThat(count("SELECT sum(covered) FROM conversions_daily WHERE project_id = $1", project)).isEqualTo(1);
        assertThat(count("SELECT sum(conversions)::bigint FROM conversions_daily WHERE project_id = $1", project)).isEqualTo(15);
    }

    @Test
    void rollupsEqualAFreshAggregationAfterManyReplacements() {
        UUID project = UUID.randomUUID();
        Random random = new Random(17);
        List<UUID> interventions = new ArrayList<>();
        Map<UUID, Instant> shipped = new HashMap<>();
        for (int i = 0; i < 12; i++) {
            UUID id = UUID.randomUUID();
            interventions.add(id);
            shipped.put(id, Instant.now().minus(Duration.ofDays(20 + random.nextInt(200))));
        }
        OutcomeMeasured.Dimension[] dims = {Measurement.up(), Measurement.down(), Measurement.flat(), null};
        String[] channels = {"content", "docs", "pr"};
        List<OutcomeMeasured> records = new ArrayList<>();
        for (int i = 0; i < 80; i++) {
            UUID id = interventions.get(random.nextInt(interventions.size()));
            int window = OutcomeMeasured.WINDOWS.get(random.nextInt(4));
            Measurement m = Measurement.of(project).intervention(id).intervenedAt(shipped.get(id)).window(window)
                    .channel(channels[random.nextInt(3)]).actionType(random.nextBoolean() ? null : "prompt_gap")
                    .citations(window == 7 ? null : dims[random.nextInt(4)])
                    .answerFetches(window == 7 ? null : dims[random.nextInt(4)])
                    .measuredAt(shipped.get(id).plus(Duration.ofDays(window)).plus(Duration.ofHours(random.nextInt(500))));
            if (random.nextInt(4) == 0) {
                m.inFlight().measuredAt(shipped.get(id).plus(Duration.ofHours(1 + random.nextInt(24 * window - 2))));
            }
            if (random.nextInt(5) == 0) {
                m.blind();
            }
            if (random.nextInt(6) == 0) {
                m.conversions(random.nextInt(50), random.nextInt(50));
            }
            records.add(m.build());
        }
        OutcomeMeasured sentinel = Measurement.of(project).build();
        records.add(sentinel);
        publish(records);
        awaitMeasurement(sentinel);
        assertRollupsMatchTheRows(project);
    }

    @Test
    void aMalformedRecordIsDeadLetteredWithItsReasonAndTheNextOneApplies() {
        UUID project = UUID.randomUUID();
        OutcomeMeasured good = Measurement.of(project).build();
        String wrongWindow = mapper.writeValueAsString(Measurement.of(project).window(10).build());
        String noChannel = mapper.writeValueAsString(Measurement.of(project).build()).replace("\"channel\":\"content\",", "");
        String badPValue = mapper.writeValueAsString(Measurement.of(project).build()).replace("\"pValue\":0.01", "\"pValue\":7");
        TestKafka.publish(Topics.OUTCOMES_MEASUREMENTS, project.toString(), "not json {", wrongWindow, noChannel, badPValue,
                mapper.writeValueAsString(good));
        awaitMeasurement(good);

        List<ConsumerRecord<String, String>> dead = TestKafka.awaitRecords(Topics.OUTCOMES_MEASUREMENTS + ".DLT",
                r -> project.toString().equals(r.key()), 4, WAIT);
        assertThat(dead).hasSize(4);
        assertThat(dead.get(0).value()).isEqualTo("not json {");
        assertThat(dead.stream().map(r -> new String(r.headers().lastHeader("x-dlt-reason").value(), StandardCharsets.UTF_8)))
                .satisfiesExactly(
                        reason -> assertThat(reason).isEqualTo("poison: not JSON"),
                        reason -> assertThat(reason).contains("windowDays"),
                        reason -> assertThat(reason).contains("channel"),
                        reason -> assertThat(reason).contains("pValue"));
        assertThat(count("SELECT count(*) FROM interventions WHERE project_id = $1", project)).isEqualTo(1);
    }

    @Test
    void aRecordContradictingItsStoredInterventionIsDeadLetteredAloneAndTheRestOfItsBatchApplies() {
        UUID project = UUID.randomUUID();
        OutcomeMeasured first = Measurement.of(project).build();
        publish(first);
        awaitMeasurement(first);
        // one send on the project's partition (one poll): the intervention again under another project,
        // and with another intervenedAt, between two good records
        OutcomeMeasured before = Measurement.of(project).build();
        String otherProject = mapper.writeValueAsString(Measurement.of(UUID.randomUUID()).intervention(first.interventionId())
                .intervenedAt(first.intervenedAt()).build());
        String movedShipDate = mapper.writeValueAsString(Measurement.of(project).intervention(first.interventionId())
                .intervenedAt(first.intervenedAt().minus(Duration.ofDays(1))).build());
        OutcomeMeasured after = Measurement.of(project).build();
        TestKafka.publish(Topics.OUTCOMES_MEASUREMENTS, project.toString(), mapper.writeValueAsString(before), otherProject,
                movedShipDate, mapper.writeValueAsString(after));

        List<ConsumerRecord<String, String>> dead = TestKafka.awaitRecords(Topics.OUTCOMES_MEASUREMENTS + ".DLT",
                r -> project.toString().equals(r.key()), 2, WAIT);
        assertThat(dead).extracting(ConsumerRecord::value).containsExactlyInAnyOrder(otherProject, movedShipDate);
        assertThat(dead.stream().map(r -> new String(r.headers().lastHeader("x-dlt-reason").value(), StandardCharsets.UTF_8)))
                .containsExactlyInAnyOrder("poison: interventionId belongs to another project",
                        "poison: intervenedAt differs from the intervention's earlier records");
        awaitMeasurement(after);
        awaitMeasurement(before);
        assertThat(count("SELECT count(*) FROM interventions WHERE project_id = $1", project)).isEqualTo(3);
        assertThat(count("SELECT count(*) FROM measurements WHERE intervention_id = $1", first.interventionId())).isEqualTo(1);
        assertRollupsMatchTheRows(project);
    }

    @Test
    void actionEventsGiveTitlesAndCompletionTimesAndOtherEventsAreIgnored() {
        UUID project = UUID.randomUUID();
        UUID action = UUID.randomUUID();
        Instant created = Instant.now().minus(Duration.ofDays(3));
        publishActionEvent(project, action, "action.created", "Refresh the pricing page", "suggested", created);
        publishActionEvent(project, action, "action.updated", null, "live", created.plus(Duration.ofDays(1)));
        dev.visibility.platform.testing.TestKafka.publish(Topics.PUBLIC_EVENTS, project.toString(),
                "{\"eventId\":\"" + UUID.randomUUID() + "\",\"event\":\"search-tracking.completed\",\"projectId\":\"" + project
                        + "\",\"accountId\":\"a\",\"timestamp\":\"" + Instant.now() + "\",\"data\":{\"runId\":\"r\",\"finalStatus\":\"completed\"}}");
        await().atMost(WAIT).until(() -> count("SELECT count(*) FROM actions WHERE project_id = $1 AND completed_at IS NOT NULL",
                project) == 1);
        assertThat(db.sql("SELECT title FROM actions WHERE action_id = :a").bind("a", action).map(r -> r.get(0, String.class))
                .one().block()).isEqualTo("Refresh the pricing page");

        // an older event arriving late changes nothing; reopening clears the completion time
        publishActionEvent(project, action, "action.updated", "Old title", "accepted", created.minus(Duration.ofDays(1)));
        publishActionEvent(project, action, "action.updated", null, "accepted", created.plus(Duration.ofDays(2)));
        await().atMost(WAIT).until(() -> count("SELECT count(*) FROM actions WHERE project_id = $1 AND completed_at IS NULL",
                project) == 1);
        assertThat(db.sql("SELECT title FROM actions WHERE action_id = :a").bind("a", action).map(r -> r.get(0, String.class))
                .one().block()).isEqualTo("Refresh the pricing page");
    }

    /** Every rollup row equals the aggregation of the stored interventions and measurements. */
    private void assertRollupsMatchTheRows(UUID project) {
        assertThat(query("""
                SELECT day::text, improved, mixed, no_clear_change, declined, still_measuring, unmeasured, in_flight, blind,
                       unmatched_url, sensor_gap, round(citations_before::numeric, 3), round(citations_after::numeric, 3)
                FROM scoreboard_daily WHERE project_id = $1
                  AND improved + mixed + no_clear_change + declined + still_measuring + unmeasured > 0 ORDER BY day""", project))
                .isEqualTo(query("""
                SELECT intervened_on::text, count(*) FILTER (WHERE result = 'improved'), count(*) FILTER (WHERE result = 'mixed'),
                       count(*) FILTER (WHERE result = 'no_clear_change'), count(*) FILTER (WHERE result = 'declined'),
                       count(*) FILTER (WHERE result = 'still_measuring'), count(*) FILTER (WHERE result = 'unmeasured'),
                       count(*) FILTER (WHERE in_flight), count(*) FILTER (WHERE blind),
                       count(*) FILTER (WHERE unmatched_url), count(*) FILTER (WHERE sensor_gap),
                       round(coalesce(sum((canonical->'citations'->>'before')::float) FILTER (WHERE result IN
                           ('improved', 'mixed', 'no_clear_change', 'declined') AND jsonb_typeof(canonical->'citations') = 'object'), 0)::numeric, 3),
                       round(coalesce(sum((canonical->'citations'->>'after')::float) FILTER (WHERE result IN
                           ('improved', 'mixed', 'no_clear_change', 'declined') AND jsonb_typeof(canonical->'citations') = 'object'), 0)::numeric, 3)
                FROM interventions WHERE project_id = $1 GROUP BY intervened_on ORDER BY intervened_on""", project));
        assertThat(query("""
                SELECT day::text, window_days, in_flight, cit_measured, round(cit_delta::numeric, 3), round(presence_delta::numeric, 3),
                       af_measured, round(af_delta::numeric, 3)
                FROM impact_daily WHERE project_id = $1 AND in_flight + cit_measured + af_measured > 0 ORDER BY 1, 2""", project))
                .isEqualTo(query("""
                SELECT i.intervened_on::text, m.window_days, count(*) FILTER (WHERE m.in_flight),
                       count(*) FILTER (WHERE NOT m.in_flight AND m.cit_measured),
                       round(coalesce(sum(m.cit_delta) FILTER (WHERE NOT m.in_flight), 0)::numeric, 3),
                       round(coalesce(sum(m.presence_delta) FILTER (WHERE NOT m.in_flight), 0)::numeric, 3),
                       count(*) FILTER (WHERE NOT m.in_flight AND m.af_measured),
                       round(coalesce(sum(m.af_delta) FILTER (WHERE NOT m.in_flight), 0)::numeric, 3)
                FROM measurements m JOIN interventions i USING (intervention_id) WHERE m.project_id = $1
                GROUP BY 1, 2 HAVING count(*) FILTER (WHERE m.in_flight OR m.cit_measured OR m.af_measured) > 0 ORDER BY 1, 2""",
                        project));
        assertThat(query("""
                SELECT day::text, channel, action_type, improved, round(impact_sum::numeric, 3), round(effect_sum::numeric, 3),
                       last_available_at::text
                FROM what_works_daily WHERE project_id = $1 AND improved > 0 ORDER BY 1, 2, 3""", project))
                .isEqualTo(query("""
                SELECT ((intervened_at AT TIME ZONE 'UTC') + interval '14 days')::date::text, channel, coalesce(action_type, ''),
                       count(*), round(sum(impact_score)::numeric, 3), round(sum(measured_effect)::numeric, 3),
                       (max(intervened_at) + interval '14 days')::text
                FROM interventions WHERE project_id = $1 AND result = 'improved' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3""", project));
        assertThat(query("""
                SELECT day::text, window_days, covered, round(conversions::numeric, 3) FROM conversions_daily
                WHERE project_id = $1 AND covered > 0 ORDER BY 1, 2""", project))
                .isEqualTo(query("""
                SELECT window_end_on::text, window_days, count(*), round(sum(conv_delta)::numeric, 3) FROM measurements
                WHERE project_id = $1 AND NOT in_flight AND conv_covered AND window_days IN (30, 90) GROUP BY 1, 2 ORDER BY 1, 2""",
                        project));
    }

    private Map<String, Object> rollups(UUID project) {
        Map<String, Object> all = new HashMap<>();
        for (String table : List.of("scoreboard_daily", "impact_daily", "conversions_daily", "what_works_daily")) {
            List<String> rows = query("SELECT t::text FROM " + table + " t WHERE project_id = $1", project);
            for (String row : rows) {
                all.put(table + row, row);
            }
        }
        return all;
    }

    private List<String> query(String sql, UUID project) {
        return db.sql(sql).bind(0, project).map((row, meta) -> {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < meta.getColumnMetadatas().size(); i++) {
                line.append(i == 0 ? "" : "|").append(row.get(i) == null ? "null" : row.get(i).toString());
            }
            return line.toString();
        }).all().collectList().block();
    }
}
