package dev.visibility.actions.recommendations;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.actions.support.ActionsTest;
import dev.visibility.actions.support.Candidates;
import dev.visibility.platform.testing.JsonShapes;
import dev.visibility.platform.testing.TestKafka;
import dev.visibility.platform.consumer.DeadLetters;
import dev.visibility.platform.events.Topics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Spec 6 and 6.2: recommendations arrive on the recommendations topic (real broker); the action
 * events leave through the outbox onto public.events. Every payload is validated against its JSON
 * Schema under docs/events/; each "does not fire" rule of section 6 has its own test.
 */
class RecommendationEventsTest extends ActionsTest {

    private static final String CREATED = "action.created";
    private static final String UPDATED = "action.updated";
    private static final String REC_CREATED = "action.recommendation.created";
    private static final String REC_UPDATED = "action.recommendation.updated";

    private static Map<String, Object> candidate(UUID project, String id) {
        return Candidates.upsert(project, id, "prompt_gap", 200, 0.5, 0.8, List.of(UUID.randomUUID(), UUID.randomUUID()), 10);
    }

    /** Publishes {@code first}, waits for its action, answers the action id. */
    private String ingest(UUID project, Map<String, Object> first) {
        publish(project, first);
        return awaitAction(project, (String) first.get("recommendationId"));
    }

    /** Publishes a later version and waits until it (and everything before it) has been applied. */
    private void republish(UUID project, Map<String, Object> next) {
        publish(project, next);
        sync(project);
    }

    @Test
    void newRecommendationFiresActionCreatedAndRecommendationCreatedPerSchema() {
        UUID project = UUID.randomUUID();
        Map<String, Object> c = candidate(project, "rec-new");
        String id = ingest(project, c);

        List<Published> events = eventsOf(project, id);
        assertThat(events).extracting(Published::type).containsExactly(CREATED, REC_CREATED);
        events.forEach(ActionsTest::assertSchema);
        Published created = events.get(1);
        assertThat(created.body()).containsEntry("accountId", c.get("accountId")).containsEntry("projectId", project.toString());
        Map<String, Object> data = created.data();
        // spec 6.2 base, system origin
        assertThat(data).containsEntry("event", REC_CREATED).containsEntry("actionId", id).containsEntry("origin", "system")
                .containsEntry("changedFields", List.of());
        assertThat(map(data.get("actor"))).isEqualTo(Map.of("type", "system"));
        assertThat(map(data.get("action"))).containsEntry("status", "suggested").containsEntry("surface", "recommendations")
                .containsEntry("title", "Win back citations for rec-new").containsEntry("expectedImpact", "About 12 more citations a month");
        assertThat(map(data.get("links"))).containsKey("mcpActionBrief");
        Map<String, Object> context = map(data.get("recommendationContext"));
        assertThat(context).containsEntry("bucket", "do_now").containsEntry("whyNow", "Citations fell for three weeks in a row.")
                .containsEntry("changeReasons", List.of());
        assertThat(map(context.get("review"))).isEqualTo(Map.of("classification", "new_recommendation", "fingerprintKey", "rec-new"));
        assertThat(list(context.get("topEvidence")).get(0).keySet()).containsExactly("id", "title", "summary", "type");
        Map<String, Object> readiness = map(context.get("briefReadiness"));
        assertThat(readiness).containsEntry("hasBrief", false).containsEntry("status", null).containsEntry("generatedAt", null);
        // the only ranked opportunity of its family: percentile 100 with pool size 1 (spec 2.4)
        Map<String, Object> opportunity = map(context.get("opportunity"));
        assertThat(opportunity).containsEntry("percentile", 100.0).containsEntry("percentilePoolSize", 1)
                .containsEntry("family", "prompt_gap").containsEntry("estimated", false)
                .containsEntry("measuredFacts", List.of("citation_share_dropped"))
                .doesNotContainKeys("measurements", "score", "percentileStatus");
        assertThat(map(map(opportunity.get("components")).get("gap"))).containsEntry("unit", "citation_share");
    }

    @Test
    void citationDefenceOpportunityCarriesPublishedWindowAndCitationCounts() {
        UUID project = UUID.randomUUID();
        String id = ingest(project, Candidates.upsert(project, "defend", "citation_defence", 200, 0.5, 0.8,
                List.of(UUID.randomUUID()), 10));
        Published created = eventsOf(project, id).get(1);
        assertSchema(created);
        assertThat(map(map(map(created.data().get("recommendationContext")).get("opportunity")).get("measurements")))
                .isEqualTo(Map.of("asOfDate", "2026-11-20", "currentCitationCount", 10, "priorCitationCount", 22,
                        "currentProbeDays", 14, "priorProbeDays", 14));
    }

    @Test
    void materialChangeFiresRecommendationUpdatedWithChangeReasons() {
        UUID project = UUID.randomUUID();
        Map<String, Object> c = candidate(project, "rec-material");
        String id = ingest(project, c);
        Map<String, Object> next = Candidates.next(c);
        next.put("target", Map.of("label", "Comparison page", "type", "page", "payload", Map.of("url", "https://example.com/compare")));
        map(list(map(next.get("evidence")).get("topEvidence")).get(0).get("citationLoss")).put("cells",
                List.of(Map.of("promptId", UUID.randomUUID().toString(), "platform", "perplexity", "priorCitationCount", 3,
                        "currentCitationCount", 10, "promptText", "x", "priorExecutions", 5, "currentExecutions", 5)));
        republish(project, next);

        List<Published> events = eventsOf(project, id);
        assertThat(events).extracting(Published::type).containsExactly(CREATED, REC_CREATED, UPDATED, REC_UPDATED);
        events.forEach(ActionsTest::assertSchema);
        assertThat(events.get(2).data()).containsEntry("changedFields", List.of("target_label"));
        Map<String, Object> data = events.get(3).data();
        assertThat(data).containsEntry("changedFields", List.of("target_label"));
        Map<String, Object> context = map(data.get("recommendationContext"));
        assertThat(context).containsEntry("changeReasons", List.of("concrete_target_changed", "prompt_set_changed"))
                .doesNotContainKey("review").containsKey("opportunity");
        assertThat(map(map(data.get("action")).get("target"))).containsEntry("label", "Comparison page");
        assertThat(map(data.get("links"))).doesNotContainKey("mcpActionBrief");
    }

    @Test
    void eventsForAdoptedActionsOmitTheOpportunity() {
        UUID project = UUID.randomUUID();
        Map<String, Object> c = candidate(project, "rec-adopted");
        String id = ingest(project, c);
        patch(project, id, Map.of("status", "accepted"), 200);
        Map<String, Object> next = Candidates.next(c);
        next.put("channels", List.of("content", "pr"));
        republish(project, next);

        List<Published> events = eventsOf(project, id);
        assertThat(events).extracting(Published::type).containsExactly(CREATED, REC_CREATED, UPDATED, UPDATED, REC_UPDATED);
        Published update = events.get(4);
        assertSchema(update);
        Map<String, Object> context = map(update.data().get("recommendationContext"));
        assertThat(context).containsEntry("changeReasons", List.of("channels_changed")).doesNotContainKey("opportunity");
        assertThat(map(update.data().get("action"))).containsEntry("status", "accepted").containsEntry("surface", "workspace");
    }

    // --- spec 6: action.recommendation.updated does not fire for … ------------------------------

    @Test
    void doesNotFireForAReorder() {
        UUID project = UUID.randomUUID();
        Map<String, Object> c = candidate(project, "rec-reordered");
        String id = ingest(project, c);
        await("rank 1", () -> Integer.valueOf(1).equals(rank(id)));
        // a stronger candidate of the same family takes rank 1, and this one's own score moves too
        publish(project, Candidates.upsert(project, "rec-stronger", "prompt_gap", 900, 0.9, 0.9, List.of(UUID.randomUUID()), 10));
        Map<String, Object> next = Candidates.next(c);
        next.put("opportunity", Candidates.opportunity("prompt_gap", 150, 0.5, 0.8));
        republish(project, next);
        await("rank 2", () -> Integer.valueOf(2).equals(rank(id)));
        assertThat(typesOf(project, id)).containsExactly(CREATED, REC_CREATED);
    }

    @Test
    void doesNotFireForAcceptance() {
        UUID project = UUID.randomUUID();
        String id = ingest(project, candidate(project, "rec-accepted"));
        patch(project, id, Map.of("status", "accepted"), 200);
        sync(project);
        assertThat(typesOf(project, id)).containsExactly(CREATED, REC_CREATED, UPDATED);
        assertThat(eventsOf(project, id).get(2).data()).containsEntry("changedFields", List.of("status"));
    }

    @Test
    void doesNotFireForBacklogMovement() {
        UUID project = UUID.randomUUID();
        Map<String, Object> c = candidate(project, "rec-backlog");
        String id = ingest(project, c);
        Map<String, Object> next = Candidates.next(c);
        next.put("bucket", "backlog");
        republish(project, next);
        patch(project, id, Map.of("status", "accepted"), 200);
        patch(project, id, Map.of("status", "suggested"), 200);
        sync(project);
        assertThat(typesOf(project, id)).containsExactly(CREATED, REC_CREATED, UPDATED, UPDATED);
    }

    @Test
    void doesNotFireForSmallCitationDriftButDoesForAMaterialShift() {
        UUID project = UUID.randomUUID();
        Map<String, Object> c = candidate(project, "rec-drift");
        String id = ingest(project, c);
        // 10 → 12 → 14: each step and the sum stay under 5 citations from the baseline
        for (int citations : new int[] {12, 14}) {
            Map<String, Object> next = Candidates.next(c);
            citationsOf(next).put("currentCitationCount", citations);
            republish(project, next);
        }
        assertThat(typesOf(project, id)).containsExactly(CREATED, REC_CREATED);
        Map<String, Object> shift = Candidates.next(c);
        citationsOf(shift).put("currentCitationCount", 16);
        republish(project, shift);
        assertThat(typesOf(project, id)).containsExactly(CREATED, REC_CREATED, REC_UPDATED);
        assertThat(map(eventsOf(project, id).get(2).data().get("recommendationContext")))
                .containsEntry("changeReasons", List.of("citation_loss_changed"));
    }

    @Test
    void doesNotFireForAnEvidenceReorder() {
        UUID project = UUID.randomUUID();
        Map<String, Object> c = candidate(project, "rec-evidence");
        List<Map<String, Object>> evidence = list(map(c.get("evidence")).get("topEvidence"));
        evidence.add(Candidates.evidenceItem(UUID.randomUUID(), List.of(UUID.randomUUID()), 0));
        String id = ingest(project, c);
        Map<String, Object> next = Candidates.next(c);
        List<Map<String, Object>> swapped = list(map(next.get("evidence")).get("topEvidence"));
        java.util.Collections.reverse(swapped);
        republish(project, next);
        assertThat(typesOf(project, id)).containsExactly(CREATED, REC_CREATED);
        // the stored evidence follows the new order all the same
        String first = String.valueOf(swapped.get(0).get("id"));
        Map<String, Object> listed = list(data(get(project, "/actions/list?detailLevel=context&pageSize=100", 200)).get("actions"))
                .stream().filter(a -> id.equals(a.get("id"))).findFirst().orElseThrow();
        assertThat(list(map(listed.get("context")).get("topEvidence")).get(0)).containsEntry("id", first);
    }

    @Test
    void doesNotFireForAWordingOnlyChange() {
        UUID project = UUID.randomUUID();
        Map<String, Object> c = candidate(project, "rec-wording");
        String id = ingest(project, c);
        Map<String, Object> next = Candidates.next(c);
        next.put("title", "Recover lost citations for the pricing page");
        next.put("description", "Competitors are cited where the project used to be cited.");
        next.put("whyNow", "Citations have fallen for three weeks.");
        next.put("whatChanged", "Two rivals published comparisons.");
        republish(project, next);
        // the entity changed visibly (action.updated), the recommendation did not change materially
        assertThat(typesOf(project, id)).containsExactly(CREATED, REC_CREATED, UPDATED);
        Published update = eventsOf(project, id).get(2);
        assertSchema(update);
        assertThat(update.data()).containsEntry("changedFields", List.of("title", "description"));
    }

    @Test
    void doesNotFireForBriefAbsenceAlone() {
        UUID project = UUID.randomUUID();
        Map<String, Object> c = candidate(project, "rec-brief");
        c.put("brief", Map.of("summary", "Rewrite the H1", "steps", List.of(Map.of("heading", "H1", "body", "Name it")),
                "generatedAt", "2026-11-20T09:00:00Z", "updatedAt", "2026-11-20T09:00:00Z"));
        String id = ingest(project, c);
        Map<String, Object> next = Candidates.next(c);
        next.put("brief", null);
        republish(project, next);
        assertThat(typesOf(project, id)).containsExactly(CREATED, REC_CREATED);
        Map<String, Object> readiness = map(data(get(project, "/actions/" + id + "/brief", 200)).get("readiness"));
        assertThat(readiness).containsEntry("hasBrief", true).containsEntry("status", "ready");
    }

    // --- withdrawal, duplicates, dead letters, the real topic ------------------------------------

    @Test
    void suggestionWithdrawnBeforeAnyoneActedIsRemovedAndSendsNoFurtherEvents() {
        UUID project = UUID.randomUUID();
        Map<String, Object> c = candidate(project, "rec-withdrawn");
        String id = ingest(project, c);
        publish(project, Candidates.withdraw(project, "rec-withdrawn"), Candidates.next(withTitle(c, "Reworded")));
        sync(project);
        // the later upsert of the same id is a new suggestion, not an update of the withdrawn one
        assertThat(typesOf(project, id)).containsExactly(CREATED, REC_CREATED);
        assertThat(get(project, "/actions/" + id + "/brief", 404)).containsEntry("error", "not_found");
        String again = actionIdOf(project, "rec-withdrawn");
        assertThat(again).isNotEqualTo(id);
        // same material facts as before the withdrawal: only a fresh brief needs a look
        assertThat(map(map(eventsOf(project, again).get(1).data().get("recommendationContext")).get("review")))
                .containsEntry("classification", "brief_stale_only");
    }

    @Test
    void suggestionWithdrawnAfterSomeoneActedIsArchivedAsWithdrawn() {
        UUID project = UUID.randomUUID();
        String id = ingest(project, candidate(project, "rec-acted"));
        patch(project, id, Map.of("assignedTo", UUID.randomUUID().toString()), 200);
        publish(project, Candidates.withdraw(project, "rec-acted"));
        sync(project);
        assertThat(typesOf(project, id)).containsExactly(CREATED, REC_CREATED, UPDATED, UPDATED);
        assertThat(eventsOf(project, id).get(3).data()).containsEntry("changedFields", List.of("status"));
        assertThat(list(data(get(project, "/actions/list?status=archived", 200)).get("actions")))
                .extracting(a -> a.get("id")).containsExactly(id);
        // withdrawn work cannot be restored
        assertThat(String.valueOf(patch(project, id, Map.of("status", "suggested"), 400).get("message"))).contains("withdrawn");
    }

    @Test
    void aSetPublishedAtOnceIsAppliedRecordAfterRecordAsIfOneAtATime() {
        // one send, so the consumer reads the records in one poll and applies them in one transaction:
        // each record sees what the records before it wrote (spec 6's rules per record)
        UUID project = UUID.randomUUID();
        Map<String, Object> kept = candidate(project, "rec-set-kept");
        Map<String, Object> changed = Candidates.next(kept);
        changed.put("target", Map.of("label", "Comparison page", "type", "page", "payload", Map.of("url", "https://example.com/compare")));
        Map<String, Object> gone = candidate(project, "rec-set-gone");
        Map<String, Object> ranked = candidate(project, "rec-set-ranked");
        publish(project, kept, gone, changed, Candidates.withdraw(project, "rec-set-gone"), ranked);
        sync(project);

        String id = actionIdOf(project, "rec-set-kept");
        List<Published> events = eventsOf(project, id);
        assertThat(events).extracting(Published::type).containsExactly(CREATED, REC_CREATED, UPDATED, REC_UPDATED);
        assertThat(events.get(3).data().get("recommendationContext")).extracting(c -> map(c).get("changeReasons"))
                .isEqualTo(List.of("concrete_target_changed"));
        // withdrawn before anyone acted, in the same poll as its creation: removed, nothing after its creation
        assertThat(actionIdOf(project, "rec-set-gone")).isNull();
        assertThat(outbox(project)).extracting(Published::type)
                .containsExactly(CREATED, REC_CREATED, CREATED, REC_CREATED, UPDATED, REC_UPDATED, CREATED, REC_CREATED,
                        CREATED, REC_CREATED);
        // the third suggestion of the same family joins a pool of two (the removed one left it): counted in its event
        Map<String, Object> opportunity = map(map(eventsOf(project, actionIdOf(project, "rec-set-ranked")).get(1).data()
                .get("recommendationContext")).get("opportunity"));
        assertThat(opportunity).containsEntry("percentilePoolSize", 2);
    }

    @Test
    void aRedeliveredRecordIsAppliedOnce() {
        UUID project = UUID.randomUUID();
        Map<String, Object> c = candidate(project, "rec-twice");
        publish(project, c, c);
        String id = awaitAction(project, "rec-twice");
        sync(project);
        assertThat(typesOf(project, id)).containsExactly(CREATED, REC_CREATED);
    }

    @Test
    void anUnusableRecordGoesToTheDeadLetterTopicUnchanged() {
        UUID project = UUID.randomUUID();
        String marker = "unusable-" + UUID.randomUUID();
        Map<String, Object> bad = candidate(project, marker);
        bad.put("priority", "urgent");
        String json = Candidates.json(bad);
        TestKafka.publish(Topics.RECOMMENDATIONS, project.toString(), List.of(json, "{not json"));
        List<ConsumerRecord<String, String>> dead = TestKafka.awaitRecords(DeadLetters.topic(Topics.RECOMMENDATIONS),
                r -> project.toString().equals(r.key()), 2, WITHIN);
        assertThat(dead).extracting(ConsumerRecord::value).containsExactly(json, "{not json");
        sync(project);
        assertThat(actionIdOf(project, marker)).isNull();
    }

    @Test
    void eventsReachPublicEventsWithTheirHeaders() {
        UUID project = UUID.randomUUID();
        String id = ingest(project, candidate(project, "rec-kafka"));
        List<ConsumerRecord<String, String>> records = TestKafka.awaitRecords(Topics.PUBLIC_EVENTS,
                r -> project.toString().equals(r.key()), 2, Duration.ofSeconds(30));
        assertThat(records).hasSize(2);
        assertThat(records).extracting(r -> new String(r.headers().lastHeader(Topics.EVENT_TYPE_HEADER).value(), StandardCharsets.UTF_8))
                .containsExactly(CREATED, REC_CREATED);
        List<Published> stored = eventsOf(project, id);
        assertThat(records).extracting(ConsumerRecord::value).containsExactly(stored.get(0).json(), stored.get(1).json());
        for (ConsumerRecord<String, String> r : records) {
            Map<?, ?> body = Candidates.JSON.readValue(r.value(), Map.class);
            assertThat(new String(r.headers().lastHeader(Topics.EVENT_ID_HEADER).value(), StandardCharsets.UTF_8))
                    .isEqualTo(body.get("eventId"));
        }
    }

    @Test
    void theRecommendationsSchemaDescribesTheRecordsProducersSend() {
        UUID project = UUID.randomUUID();
        Map<String, Object> c = candidate(project, "schema");
        JsonShapes.assertValidEvent("recommendations", Candidates.json(c));
        JsonShapes.assertValidEvent("recommendations", Candidates.json(Candidates.withdraw(project, "schema")));
        c.put("priority", "urgent");
        assertThat(JsonShapes.eventErrors("recommendations", Candidates.json(c))).isNotEmpty();
    }

    private Integer rank(String id) {
        return db.sql("SELECT portfolio_rank FROM actions WHERE id = :id").bind("id", UUID.fromString(id))
                .map(row -> java.util.Optional.ofNullable(row.get(0, Integer.class))).one().block().orElse(null);
    }

    private static Map<String, Object> citationsOf(Map<String, Object> candidate) {
        return map(list(map(candidate.get("evidence")).get("topEvidence")).get(0).get("citationLoss"));
    }

    private static Map<String, Object> withTitle(Map<String, Object> c, String title) {
        Map<String, Object> copy = Candidates.next(c);
        copy.put("title", title);
        return copy;
    }
}
