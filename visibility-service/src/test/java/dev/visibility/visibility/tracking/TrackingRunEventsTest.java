package dev.visibility.visibility.tracking;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import dev.visibility.platform.consumer.DeadLetters;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.events.TrackingRunCompleted;
import dev.visibility.platform.testing.TestKafka;
import dev.visibility.platform.tracing.TraceContexts;
import dev.visibility.visibility.support.Runs;
import dev.visibility.platform.testing.JsonShapes;
import dev.visibility.visibility.support.TopicRecorder;
import dev.visibility.visibility.support.VisibilityTest;
import org.junit.jupiter.api.Test;

/**
 * Spec 6 and 6.2: a finished tracking run emits search-tracking.completed (runId, finalStatus) and,
 * with its metrics, visibility.changed (runId, capturedOn, metrics, previousMetrics — null on a
 * project's first run), through the outbox onto public.events, in the envelope of spec 6.1.
 */
class TrackingRunEventsTest extends VisibilityTest {

    private static final LocalDate DAY = LocalDate.of(2026, 11, 10);

    @Test
    void firstRunEmitsBothEventsWithExactPayloadsAndPreviousMetricsNull() {
        UUID project = UUID.randomUUID();
        String account = "acct-" + UUID.randomUUID();
        TrackingRunCompleted run = Runs.completed(project, account, DAY, 8, 3);
        publish(Topics.TRACKING_RUNS, project.toString(), run);

        List<Map<String, Object>> events = publicEvents(project, 2);
        assertThat(events).hasSize(2);
        Map<String, Object> completed = events.get(0);
        Map<String, Object> changed = events.get(1);

        // spec 6.1 envelope; accountId comes from the tracking run
        assertThat(completed).containsEntry("event", "search-tracking.completed")
                .containsEntry("projectId", project.toString()).containsEntry("accountId", account);
        assertThat(completed.get("data")).isEqualTo(Map.of("runId", run.runId().toString(), "finalStatus", "completed"));

        assertThat(changed).containsEntry("event", "visibility.changed")
                .containsEntry("projectId", project.toString()).containsEntry("accountId", account);
        @SuppressWarnings("unchecked")
        Map<String, Object> data = (Map<String, Object>) changed.get("data");
        assertThat(data).containsOnlyKeys("runId", "capturedOn", "metrics", "previousMetrics")
                .containsEntry("runId", run.runId().toString())
                .containsEntry("capturedOn", "2026-11-10")
                // spec 6.2: previousMetrics is null when no prior data exists (first run), written explicitly
                .containsEntry("previousMetrics", null);
        // 3 of 8 samples name or cite the brand: 37.5; 2 own citations and 3 own mentions per visible sample
        assertThat(data.get("metrics")).isEqualTo(Map.of("visibilityScore", 37.5, "citationCount", 6,
                "brandMentionCount", 9, "sampleCount", 8));

        JsonShapes.assertValidEvent("search-tracking.completed", delivery(completed));
        JsonShapes.assertValidEvent("visibility.changed", delivery(changed));
        assertThat(completed.get("eventId")).isNotEqualTo(changed.get("eventId"));
    }

    @Test
    void laterRunCarriesTheMetricsOfThePreviousRunWithItsCaptureDay() {
        UUID project = UUID.randomUUID();
        publish(Topics.TRACKING_RUNS, project.toString(), Runs.completed(project, "acct", DAY, 4, 1));
        publicEvents(project, 2);
        TrackingRunCompleted second = Runs.completed(project, "acct", DAY.plusDays(1), 3, 2);
        publish(Topics.TRACKING_RUNS, project.toString(), second);

        List<Map<String, Object>> events = publicEvents(project, 4);
        assertThat(events).extracting(e -> e.get("event")).containsExactly("search-tracking.completed",
                "visibility.changed", "search-tracking.completed", "visibility.changed");
        Map<String, Object> data = data(events.get(3));
        assertThat(data.get("runId")).isEqualTo(second.runId().toString());
        assertThat(data.get("metrics")).isEqualTo(Map.of("visibilityScore", 66.7, "citationCount", 4,
                "brandMentionCount", 6, "sampleCount", 3));
        assertThat(data.get("previousMetrics")).isEqualTo(Map.of("visibilityScore", 25.0, "citationCount", 2,
                "brandMentionCount", 3, "sampleCount", 4, "capturedOn", "2026-11-10"));
        JsonShapes.assertValidEvent("visibility.changed", delivery(events.get(3)));
    }

    @Test
    void duplicateRunEmitsNothingNew() {
        UUID project = UUID.randomUUID();
        TrackingRunCompleted run = Runs.completed(project, "acct", DAY, 4, 2);
        publish(Topics.TRACKING_RUNS, project.toString(), run);
        assertThat(publicEvents(project, 2)).hasSize(2);

        // the same record again (same eventId), and the same run under a new eventId
        publish(Topics.TRACKING_RUNS, project.toString(), run);
        publish(Topics.TRACKING_RUNS, project.toString(), Runs.republished(run));
        // a marker run on the same key: once its events are out, the duplicates before it were processed
        TrackingRunCompleted marker = Runs.completed(project, "acct", DAY.plusDays(1), 2, 1);
        publish(Topics.TRACKING_RUNS, project.toString(), marker);

        // the duplicates' events, had there been any, would come before the marker's (one partition)
        List<Map<String, Object>> events = publicEventsThrough(project, e -> "visibility.changed".equals(e.get("event"))
                && marker.runId().toString().equals(data(e).get("runId")));
        assertThat(events).extracting(e -> e.get("event") + " " + data(e).get("runId")).containsExactly(
                "search-tracking.completed " + run.runId(), "visibility.changed " + run.runId(),
                "search-tracking.completed " + marker.runId(), "visibility.changed " + marker.runId());
        assertThat(count("SELECT count(*) FROM tracking_runs WHERE run_id = $1", run.runId())).isOne();
        assertThat(count("SELECT count(*) FROM responses WHERE run_id = $1", run.runId())).isEqualTo(4);
    }

    @Test
    void runOlderThanTheLatestDoesNotBecomeLatestNorPrevious() {
        UUID project = UUID.randomUUID();
        TrackingRunCompleted latest = Runs.completed(project, "acct", DAY, 4, 4);
        publish(Topics.TRACKING_RUNS, project.toString(), latest);
        publicEvents(project, 2);

        // arrives late: captured two days before the latest
        TrackingRunCompleted late = Runs.completed(project, "acct", DAY.minusDays(2), 4, 0);
        publish(Topics.TRACKING_RUNS, project.toString(), late);
        TrackingRunCompleted next = Runs.completed(project, "acct", DAY.plusDays(1), 2, 1);
        publish(Topics.TRACKING_RUNS, project.toString(), next);

        // the next run is the sentinel: once its visibility.changed is out, the late run's events are too
        List<Map<String, Object>> events = publicEventsThrough(project, e -> "visibility.changed".equals(e.get("event"))
                && next.runId().toString().equals(data(e).get("runId")));
        // the late run completes (search-tracking.completed) but changes no current visibility
        assertThat(events).extracting(e -> e.get("event") + " " + data(e).get("runId")).containsExactly(
                "search-tracking.completed " + latest.runId(), "visibility.changed " + latest.runId(),
                "search-tracking.completed " + late.runId(),
                "search-tracking.completed " + next.runId(), "visibility.changed " + next.runId());
        // the next run's previous metrics are the latest run's, not the late one's
        assertThat(data(events.get(4)).get("previousMetrics")).isEqualTo(Map.of("visibilityScore", 100.0,
                "citationCount", 8, "brandMentionCount", 12, "sampleCount", 4, "capturedOn", "2026-11-10"));
    }

    @Test
    void runsConsumedTogetherEmitWhatEachEmitsAloneInTheirRecordsTrace() {
        UUID project = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        TrackingRunCompleted first = Runs.completed(project, "acct", DAY, 4, 1);
        TrackingRunCompleted third = Runs.completed(project, "acct", DAY.plusDays(2), 4, 4);
        TrackingRunCompleted second = Runs.completed(project, "acct", DAY.plusDays(1), 4, 2);
        TrackingRunCompleted failed = Runs.run(project, "acct", DAY.plusDays(3), TrackingRunCompleted.FAILED, 0, 0);
        TrackingRunCompleted fourth = Runs.completed(project, "acct", DAY.plusDays(4), 2, 1);
        TrackingRunCompleted otherRun = Runs.completed(other, "acct", DAY.plusDays(9), 2, 2);
        String trace = "00-" + UUID.randomUUID().toString().replace("-", "") + "-00f067aa0ba902b7-01";
        // sent together, acknowledged together: the consumer reads them in one poll (or a few), and each
        // run is decided as if the ones before it had been applied alone: the second arrives after the
        // third (out of order), the third again under a new eventId (a duplicate run), the first again
        // (a duplicate event)
        TestKafka.publish(Topics.TRACKING_RUNS, project.toString(), Stream.of(first, third, second, Runs.republished(third),
                failed, first, fourth).map(mapper::writeValueAsString).toList(), Map.of("traceparent", trace));
        publish(Topics.TRACKING_RUNS, other.toString(), otherRun);

        List<Map<String, Object>> events = publicEventsThrough(project, e -> "visibility.changed".equals(e.get("event"))
                && fourth.runId().toString().equals(data(e).get("runId")));
        assertThat(events).extracting(e -> e.get("event") + " " + data(e).get("runId")).containsExactly(
                "search-tracking.completed " + first.runId(), "visibility.changed " + first.runId(),
                "search-tracking.completed " + third.runId(), "visibility.changed " + third.runId(),
                "search-tracking.completed " + second.runId(),
                "search-tracking.completed " + failed.runId(),
                "search-tracking.completed " + fourth.runId(), "visibility.changed " + fourth.runId());
        assertThat(data(events.get(1))).containsEntry("previousMetrics", null);
        // spec 6.2: the previous run in capture order: the third's is the first, the fourth's the third
        assertThat(data(events.get(3)).get("previousMetrics")).isEqualTo(Map.of("visibilityScore", 25.0,
                "citationCount", 2, "brandMentionCount", 3, "sampleCount", 4, "capturedOn", "2026-11-10"));
        assertThat(data(events.get(7)).get("previousMetrics")).isEqualTo(Map.of("visibilityScore", 100.0,
                "citationCount", 8, "brandMentionCount", 12, "sampleCount", 4, "capturedOn", "2026-11-12"));
        assertThat(data(events.get(7)).get("metrics")).isEqualTo(Map.of("visibilityScore", 50.0, "citationCount", 2,
                "brandMentionCount", 3, "sampleCount", 2));
        assertThat(data(publicEvents(other, 2).get(1))).containsEntry("previousMetrics", null);

        assertThat(count("SELECT count(*) FROM tracking_runs WHERE project_id = $1", project)).isEqualTo(5);
        assertThat(count("SELECT count(*) FROM responses WHERE project_id = $1", project)).isEqualTo(14);
        // every event continues the trace of the record it came from
        String traceId = trace.substring(3, 35);
        assertThat(TopicRecorder.of(Topics.PUBLIC_EVENTS).await(r -> project.toString().equals(r.key()), 8, WAIT))
                .extracting(r -> TraceContexts.traceId(TraceContexts.traceparent(r.headers())))
                .containsOnly(traceId);
    }

    @Test
    void failedRunCompletesWithItsFinalStatusAndHasNoMetrics() {
        UUID project = UUID.randomUUID();
        TrackingRunCompleted failed = Runs.run(project, "acct", DAY, TrackingRunCompleted.FAILED, 0, 0);
        publish(Topics.TRACKING_RUNS, project.toString(), failed);
        TrackingRunCompleted first = Runs.completed(project, "acct", DAY.plusDays(1), 2, 2);
        publish(Topics.TRACKING_RUNS, project.toString(), first);

        List<Map<String, Object>> events = publicEvents(project, 3);
        assertThat(events).hasSize(3);
        assertThat(events.get(0).get("data")).isEqualTo(Map.of("runId", failed.runId().toString(), "finalStatus", "failed"));
        JsonShapes.assertValidEvent("search-tracking.completed", delivery(events.get(0)));
        // the first completed run has no prior data, whatever failed before it
        assertThat(data(events.get(2))).containsEntry("previousMetrics", null);
    }

    @Test
    void unusableRecordGoesToTheDeadLetterTopicAndTheTopicMovesOn() {
        UUID project = UUID.randomUUID();
        String key = project.toString();
        publish(Topics.TRACKING_RUNS, key, "{\"eventId\": \"not a uuid\"}");
        TrackingRunCompleted noStatus = new TrackingRunCompleted(UUID.randomUUID(), UUID.randomUUID(), project, "acct",
                "finished", DAY, null, DAY.atStartOfDay().toInstant(java.time.ZoneOffset.UTC), List.of());
        publish(Topics.TRACKING_RUNS, key, noStatus);
        publish(Topics.TRACKING_RUNS, key, Runs.completed(project, "acct", DAY, 1, 1));

        assertThat(TopicRecorder.of(DeadLetters.topic(Topics.TRACKING_RUNS)).await(r -> key.equals(r.key()), 2, WAIT))
                .hasSize(2);
        assertThat(publicEvents(project, 2)).hasSize(2);
    }

    @Test
    void unknownMembersOfARecordAreIgnored() {
        UUID project = UUID.randomUUID();
        TrackingRunCompleted run = Runs.completed(project, "acct", DAY, 2, 1);
        @SuppressWarnings("unchecked")
        Map<String, Object> json = JSON.readValue(mapper.writeValueAsString(run), Map.class);
        json.put("producerVersion", "2027.1");
        publish(Topics.TRACKING_RUNS, project.toString(), JSON.writeValueAsString(json));
        assertThat(publicEvents(project, 2)).extracting(e -> e.get("event"))
                .containsExactly("search-tracking.completed", "visibility.changed");
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> data(Map<String, Object> event) {
        return (Map<String, Object>) event.get("data");
    }

    /** The webhook body: the public.events record without its eventId (spec 6.1). */
    static String delivery(Map<String, Object> event) {
        Map<String, Object> body = new LinkedHashMap<>(event);
        body.remove("eventId");
        return JSON.writeValueAsString(body);
    }
}
