package dev.visibility.systemtests;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.platform.testing.JsonShapes;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.testing.Http.Answer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Issue 5 through the gateway with real API keys: E3 (order, filters, paging, detail levels), E6,
 * the brief and events routes, the action writes of DESIGN.md, and the action events of spec 6.2
 * as actions-service publishes them onto {@code public.events} (validated against
 * {@code docs/events/*.schema.json}), including "does not fire" cases. Recommendations enter as the
 * recommendation jobs publish them: JSON records on {@code recommendations}.
 *
 * <p>The seeded project is shared with the other test classes, so order assertions compare the
 * relative order of the actions a test made (the list's order is total, so their relative order is
 * fixed) and every recommendation of a test has a signal family of its own (percentile pools are
 * per family). {@link #fromPromptAnswersAtMost100LinkedActionsWithHasMore} writes actions of the
 * other project (found by their own prompt ids, so other actions there do not matter).
 */
class ActionsSystemTest extends SystemTest {

    // --- records of the recommendations topic (docs/events/recommendations.schema.json) --------

    static Map<String, Object> recommendation(String projectId, String recommendationId, String family, double reach,
            double gap, double confidence, List<String> prompts) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("eventId", UUID.randomUUID().toString());
        c.put("projectId", projectId);
        c.put("accountId", account());
        c.put("recommendationId", recommendationId);
        c.put("kind", "upsert");
        c.put("occurredAt", Instant.now().toString());
        c.put("title", "Win back citations for " + recommendationId);
        c.put("description", "Competitors are cited where the project used to be.");
        c.put("channels", List.of("content", "technical"));
        c.put("priority", "high");
        c.put("bucket", "do_now");
        Map<String, Object> opportunity = new LinkedHashMap<>();
        opportunity.put("family", family);
        opportunity.put("estimated", false);
        opportunity.put("components", Map.of(
                "reach", Map.of("value", reach, "unit", "searches_per_month", "estimated", false),
                "gap", Map.of("value", gap, "unit", "citation_share", "normalization", "1 - project citations / all citations"),
                "confidence", Map.of("value", confidence, "unit", "ratio", "volumeConfidencePenalty", 0.1,
                        "saturation", Map.of("signalDays", 28, "eventEvidence", 12, "runPlatformObservations", 40))));
        opportunity.put("measuredFacts", List.of("citation_share_dropped"));
        opportunity.put("percentileScope", "signal_family");
        opportunity.put("measurements", Map.of("asOfDate", "2026-11-20",
                "compositionChange", Map.of("onlyPrior", Map.of("cellCount", 2, "citationCount", 5),
                        "onlyCurrent", Map.of("cellCount", 1, "citationCount", 1)),
                "currentCitationCount", 10, "currentExecutions", 120, "currentProbeDays", 14,
                "matchedCohortCoverage", 0.8, "priorCitationCount", 22, "priorExecutions", 118, "priorProbeDays", 14));
        c.put("opportunity", opportunity);
        c.put("effortScore", 2.5);
        c.put("portfolioCategory", "quick_win");
        c.put("steeredFromPageUrl", "https://example.com/pricing");
        c.put("followUpOf", null);
        c.put("expectedImpact", "About 12 more citations a month");
        c.put("primaryCtaKind", "generate_brief");
        c.put("target", Map.of("label", "Pricing page", "type", "page", "payload", Map.of("url", "https://example.com/pricing")));
        c.put("whatChanged", "Two competitors published comparison pages.");
        c.put("whyNow", "Citations fell for three weeks in a row.");
        c.put("isCommandCenter", false);
        c.put("highStakes", false);
        c.put("ownerName", "Content team");
        c.put("evidence", Map.of("topEvidence", List.of(evidenceItem(prompts)),
                "winningPages", List.of(Map.of("rank", 1, "url", "https://competitor.example/compare", "title", "Compare",
                        "domain", "competitor.example", "assetType", "competitor", "citationCount", 14, "citedAnswers", 9,
                        "promptCount", 3, "averagePosition", 1.7))));
        c.put("brief", null);
        return c;
    }

    private static Map<String, Object> evidenceItem(List<String> prompts) {
        List<Map<String, Object>> cells = new ArrayList<>();
        for (String prompt : prompts) {
            cells.add(Map.of("promptId", prompt, "platform", "chatgpt", "priorCitationCount", 4, "currentCitationCount", 3,
                    "promptText", "best tool for " + prompt.substring(0, 4), "priorExecutions", 10, "currentExecutions", 10));
        }
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("id", UUID.randomUUID().toString());
        e.put("title", "Pricing page lost citations");
        e.put("summary", "Cited in 4 of 10 answers before, fewer now.");
        e.put("type", "citation_loss");
        e.put("audit", Map.of("assessedAt", "2026-11-19T10:00:00Z",
                "checks", List.of(Map.of("label", "Subject clarity", "detail", "The H1 names no product", "score", 0.4, "failing", true)),
                "sectionAssessment", Map.of("version", "3", "contentHash", "c1", "inputHash", "i1",
                        "assessedAt", "2026-11-19T10:00:00Z", "status", "complete", "reason", "no_substantive_sections",
                        "selection", Map.of("scannedChars", 1200, "sourceChars", 5400, "candidateCount", 3, "sampled", false, "truncated", false),
                        "sections", List.of(Map.of("locator", "#h1", "heading", "Pricing", "start", 0, "end", 400,
                                "source", "html", "truncated", false)),
                        "findings", List.of(Map.of("locator", "#h1", "kind", "subject_clarity", "excerpt", "Pricing",
                                "explanation", "No product named", "remedy", "Name the product"))),
                "pageUrl", "https://example.com/pricing", "citationScope", "page"));
        e.put("citationLoss", Map.of("priorCitationCount", 4 * prompts.size(), "currentCitationCount", 3 * prompts.size(),
                "cellCount", prompts.size(), "cells", cells, "pageLabel", "Pricing", "priorExecutions", 10 * prompts.size(),
                "currentExecutions", 10 * prompts.size()));
        e.put("googleEligibility", Map.of("coverageState", "indexed",
                "dimensions", Map.of("canonical", "pass", "crawlable", "pass", "indexed", "pass", "structuredData", "fail"),
                "observedAt", "2026-11-18T08:00:00Z"));
        return e;
    }

    private static Map<String, Object> withdraw(String projectId, String recommendationId) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("eventId", UUID.randomUUID().toString());
        c.put("projectId", projectId);
        c.put("accountId", account());
        c.put("recommendationId", recommendationId);
        c.put("kind", "withdraw");
        return c;
    }

    /** The same recommendation again under a new eventId (a later version from the job). */
    private static Map<String, Object> next(Map<String, Object> recommendation) {
        @SuppressWarnings("unchecked")
        Map<String, Object> copy = Kafka.JSON.readValue(Kafka.JSON.writeValueAsString(recommendation), LinkedHashMap.class);
        copy.put("eventId", UUID.randomUUID().toString());
        return copy;
    }

    private static String unique(String prefix) {
        return prefix + "_" + UUID.randomUUID().toString().substring(0, 8);
    }

    // --- what actions-service publishes (public.events, key projectId) ---------------------------

    private record Event(String type, String json, Map<String, Object> body) {

        Map<String, Object> data() {
            return map(body.get("data"));
        }

        /** The webhook body: the record without its eventId (spec 6.1). */
        String delivery() {
            Map<String, Object> copy = new LinkedHashMap<>(body);
            copy.remove("eventId");
            return Kafka.JSON.writeValueAsString(copy);
        }
    }

    @SuppressWarnings("unchecked")
    private static Event event(ConsumerRecord<String, String> record) {
        Map<String, Object> body = Kafka.JSON.readValue(record.value(), Map.class);
        return new Event((String) body.get("event"), record.value(), body);
    }

    private static List<Event> eventsOf(String projectId, String actionId) {
        return Kafka.publicEvents(r -> projectId.equals(r.key())).stream().map(ActionsSystemTest::event)
                .filter(e -> actionId.equals(e.data().get("actionId"))).toList();
    }

    /** Waits for the action.recommendation.created of {@code recommendationId} and answers its actionId. */
    static String awaitRecommendation(String projectId, String recommendationId) {
        ConsumerRecord<String, String> record = Kafka.awaitPublicEvents(r -> projectId.equals(r.key())
                && r.value().contains("\"fingerprintKey\":\"" + recommendationId + "\""), 1, WITHIN).get(0);
        return (String) event(record).data().get("actionId");
    }

    private static void assertSchema(Event event) {
        assertThat(event.data()).containsEntry("event", event.type());
        JsonShapes.assertValidEvent(event.type(), event.delivery());
    }

    // --- E3 --------------------------------------------------------------------------------------

    /** Every action of the project in list order, read page by page (pageSize 100). */
    private static List<Map<String, Object>> wholeList(String query) {
        List<Map<String, Object>> all = new ArrayList<>();
        int page = 1;
        int totalPages;
        do {
            Map<String, Object> data = envelope(get("/actions/list?pageSize=100&page=" + page + query, 200), project());
            all.addAll(list(data.get("actions")));
            totalPages = ((Number) map(data.get("pagination")).get("totalPages")).intValue();
            page++;
        } while (page <= totalPages);
        return all;
    }

    /** The given actions as they appear in {@code list}, in its order. */
    private static List<String> orderOf(List<Map<String, Object>> list, List<String> mine) {
        return ids(list).stream().filter(mine::contains).toList();
    }

    private static Map<String, Object> byId(List<Map<String, Object>> list, String id) {
        return list.stream().filter(a -> id.equals(a.get("id"))).findFirst().orElseThrow(() -> new AssertionError(id + " not listed"));
    }

    private static String createAction(String title) {
        return (String) envelope(post("/actions", Map.of("title", title, "description", "Written by the team",
                "channels", List.of("content"), "priority", "medium"), 201), project()).get("id");
    }

    @Test
    void listOrdersByRankNullsLastThenScoreThenCreationTime() {
        String family = unique("fam");
        String hi = unique("hi");
        String mid = unique("mid");
        String low = unique("low");
        String tieFirst = unique("tie1");
        String tieSecond = unique("tie2");
        String prompt = UUID.randomUUID().toString();
        Kafka.publish(Topics.RECOMMENDATIONS, project(),
                recommendation(project(), mid, family, 500, 0.5, 0.9, List.of(prompt)),       // score 225, ranked
                recommendation(project(), hi, family, 1000, 0.5, 0.9, List.of(prompt)),       // score 450, ranked
                recommendation(project(), low, family, 5, 0.9, 0.9, List.of(prompt)),         // 4.05, insufficient reach
                recommendation(project(), tieFirst, family, 5, 0.5, 0.5, List.of(prompt)),    // 1.25, insufficient reach
                recommendation(project(), tieSecond, family, 5, 0.5, 0.5, List.of(prompt)));  // 1.25, created later
        Map<String, String> id = new HashMap<>();
        for (String r : List.of(hi, mid, low, tieFirst, tieSecond)) {
            id.put(r, awaitRecommendation(project(), r));
        }
        String teamFirst = createAction("First by the team " + family);
        String teamSecond = createAction("Second by the team " + family);
        List<String> mine = List.of(id.get(hi), id.get(mid), id.get(low), id.get(tieFirst), id.get(tieSecond), teamFirst, teamSecond);

        // ranks are recomputed in the background: wait until both ranked candidates carry one
        List<Map<String, Object>> all = Waits.until("ranks of " + family, WITHIN, () -> wholeList(""),
                list -> byId(list, id.get(hi)).get("portfolioRank") != null && byId(list, id.get(mid)).get("portfolioRank") != null);
        // E3 ordering: portfolioRank ascending, nulls last; ties by score (internal, never shown), then creation time;
        // the team's actions have no score (nulls last)
        assertThat(orderOf(all, mine)).containsExactlyElementsOf(mine);
        assertThat(orderOf(wholeList("&status=suggested"), mine)).containsExactlyElementsOf(mine);
        assertThat((Integer) byId(all, id.get(hi)).get("portfolioRank")).isLessThan((Integer) byId(all, id.get(mid)).get("portfolioRank"));
        for (String unranked : List.of(id.get(low), id.get(tieFirst), id.get(tieSecond), teamFirst, teamSecond)) {
            assertThat(byId(all, unranked)).containsEntry("portfolioRank", null);
        }
        // spec 2.4: the pool counts the rankable candidates of the family; an unranked one has no percentile
        assertThat(map(byId(all, id.get(hi)).get("opportunity"))).containsEntry("percentile", 100.0)
                .containsEntry("percentilePoolSize", 2).containsEntry("percentileScope", "signal_family");
        assertThat(map(byId(all, id.get(mid)).get("opportunity"))).containsEntry("percentile", 50.0)
                .containsEntry("percentilePoolSize", 2);
        assertThat(map(byId(all, id.get(low)).get("opportunity"))).containsEntry("percentileStatus", "insufficient_reach")
                .doesNotContainKeys("percentile", "percentilePoolSize");
        // legacy scalar scores are never exposed
        assertThat(byId(all, id.get(hi))).doesNotContainKeys("score", "impactScore");

        // spec 6: a new recommendation fires action.created and action.recommendation.created, per their schemas
        List<Event> events = eventsOf(project(), id.get(hi));
        assertThat(events).extracting(Event::type).containsExactlyInAnyOrder("action.created", "action.recommendation.created");
        events.forEach(ActionsSystemTest::assertSchema);
        Event created = events.stream().filter(e -> e.type().equals("action.recommendation.created")).findFirst().orElseThrow();
        assertThat(created.body()).containsEntry("projectId", project()).containsEntry("accountId", account());
        assertThat(created.data()).containsEntry("origin", "system").containsEntry("changedFields", List.of());
        Map<String, Object> context = map(created.data().get("recommendationContext"));
        assertThat(context).containsEntry("bucket", "do_now").containsEntry("changeReasons", List.of());
        assertThat(map(context.get("review"))).containsEntry("fingerprintKey", hi);
    }

    @Test
    void statusGroupsComeSuggestedAcceptedLiveArchivedAndEachFilterListsOneStatus() {
        String tag = unique("status");
        String suggested = createAction("Suggested " + tag);
        String accepted = createAction("Accepted " + tag);
        String live = createAction("Live " + tag);
        String archived = createAction("Archived " + tag);
        patch("/actions/" + accepted, Map.of("status", "accepted"), 200);
        patch("/actions/" + live, Map.of("status", "accepted"), 200);
        patch("/actions/" + live, Map.of("status", "live"), 200);
        patch("/actions/" + archived, Map.of("status", "archived"), 200);
        List<String> mine = List.of(suggested, accepted, live, archived);

        // E3: without a status filter every status is returned, suggested first
        assertThat(orderOf(wholeList(""), mine)).containsExactly(suggested, accepted, live, archived);
        Map<String, String> byStatus = Map.of("suggested", suggested, "accepted", accepted, "live", live, "archived", archived);
        byStatus.forEach((status, action) -> {
            List<Map<String, Object>> filtered = wholeList("&status=" + status);
            assertThat(filtered).extracting(a -> a.get("status")).containsOnly(status);
            assertThat(orderOf(filtered, mine)).containsExactly(action);
        });
        // DESIGN.md: a known parameter with a bad value is a 400 naming it
        for (String[] bad : new String[][] {{"status=done", "status"}, {"detailLevel=full", "detailLevel"},
                {"page=0", "page"}, {"page=x", "page"}, {"pageSize=0", "pageSize"}, {"pageSize=101", "pageSize"}}) {
            assertBadParameter(get("/actions/list?" + bad[0]), bad[1]);
        }
    }

    @Test
    void pagesCoverEveryActionOnceAPageBeyondTheLastIsEmptyAndBothDetailLevels() {
        String family = unique("fam");
        String rec = unique("detail");
        Kafka.publish(Topics.RECOMMENDATIONS, project(), recommendation(project(), rec, family, 100, 0.5, 0.5,
                List.of(UUID.randomUUID().toString())));
        String id = awaitRecommendation(project(), rec);
        createAction("Paged " + family);
        // ranks are persisted in the background after writes (README of actions-service): page once they are settled
        List<String> all = ids(Waits.until("rank of " + rec, WITHIN, () -> wholeList(""),
                list -> byId(list, id).get("portfolioRank") != null));
        all = Waits.until("a settled order", WITHIN, () -> ids(wholeList("")), new java.util.function.Predicate<List<String>>() {
            private List<String> previous;

            @Override
            public boolean test(List<String> current) {
                boolean same = current.equals(previous);
                previous = current;
                return same;
            }
        });
        int total = all.size();
        Map<String, Object> first = envelope(get("/actions/list", 200), project());
        // defaults: page 1 of 25
        assertThat(map(first.get("pagination"))).containsEntry("page", 1).containsEntry("pageSize", 25)
                .containsEntry("totalCount", total).containsEntry("totalPages", (total + 24) / 25);
        int pageSize = 7;
        int totalPages = (total + pageSize - 1) / pageSize;
        List<String> paged = new ArrayList<>();
        for (int page = 1; page <= totalPages; page++) {
            Map<String, Object> data = envelope(get("/actions/list?pageSize=" + pageSize + "&page=" + page, 200), project());
            assertThat(map(data.get("pagination"))).containsEntry("page", page).containsEntry("pageSize", pageSize)
                    .containsEntry("totalCount", total).containsEntry("totalPages", totalPages);
            paged.addAll(ids(list(data.get("actions"))));
        }
        assertThat(paged).containsExactlyElementsOf(all).doesNotHaveDuplicates();
        // a page beyond the last is a 200 with no actions and the real totals
        Map<String, Object> beyond = envelope(get("/actions/list?pageSize=" + pageSize + "&page=" + (totalPages + 1), 200), project());
        assertThat(list(beyond.get("actions"))).isEmpty();
        assertThat(map(beyond.get("pagination"))).containsEntry("page", totalPages + 1).containsEntry("totalCount", total)
                .containsEntry("totalPages", totalPages);

        // summary (default): every field of spec 2.4 but context
        Map<String, Object> summary = byId(wholeList(""), id);
        assertThat(summary.keySet()).containsExactlyInAnyOrder("id", "title", "description", "channels", "priority", "status",
                "blocked", "assignedTo", "ownerName", "opportunity", "effortScore", "portfolioCategory", "portfolioRank",
                "steeredFromPageUrl", "followUpOf", "createdAt", "updatedAt", "expectedImpact", "primaryCtaKind",
                "targetLabel", "whatChanged", "whyNow", "isCommandCenter");
        assertThat(summary).containsEntry("status", "suggested").containsEntry("targetLabel", "Pricing page")
                .containsEntry("channels", List.of("content", "technical"));
        assertThat(map(summary.get("opportunity"))).containsEntry("family", family).doesNotContainKey("measurements");
        // context: adds the evidence, measurements and brief readiness
        Map<String, Object> withContext = byId(wholeList("&detailLevel=context"), id);
        Map<String, Object> context = map(withContext.get("context"));
        assertThat(context).containsKeys("topEvidence", "winningPages");
        Map<String, Object> evidence = list(context.get("topEvidence")).get(0);
        assertThat(evidence.keySet()).contains("id", "title", "summary", "type", "audit", "citationLoss", "googleEligibility");
        assertThat(map(map(evidence.get("googleEligibility")).get("dimensions"))).containsEntry("canonical", "pass");
        assertThat(list(context.get("winningPages")).get(0)).containsEntry("assetType", "competitor").containsEntry("rank", 1);
        assertThat(map(withContext.get("opportunity"))).containsKey("measurements");
    }

    // --- E6 --------------------------------------------------------------------------------------

    @Test
    void fromPromptAnswersAtMost100LinkedActionsWithHasMore() {
        String family = unique("fam");
        String crowded = UUID.randomUUID().toString();
        String quiet = UUID.randomUUID().toString();
        List<Object> records = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            records.add(recommendation(otherProject(), unique("many" + i), family, 100, 0.5, 0.5, List.of(crowded)));
        }
        String one = unique("one");
        String two = unique("two");
        records.add(recommendation(otherProject(), one, family, 100, 0.5, 0.5, List.of(quiet, crowded)));
        records.add(recommendation(otherProject(), two, family, 100, 0.5, 0.5, List.of(quiet)));
        Kafka.publish(Topics.RECOMMENDATIONS, otherProject(), records.toArray());
        String oneId = awaitRecommendation(otherProject(), one);
        String twoId = awaitRecommendation(otherProject(), two);

        // E6: {data: {hasMore, actions[]}} with no meta, at most 100, hasMore when truncated
        Answer crowdedAnswer = call("GET", otherProject(), "/actions/from-prompt?promptId=" + crowded, otherKey(), null);
        assertThat(crowdedAnswer.status()).as(crowdedAnswer.body()).isEqualTo(200);
        assertThat(crowdedAnswer.json()).containsOnlyKeys("data");
        assertThat(crowdedAnswer.data()).containsOnlyKeys("hasMore", "actions").containsEntry("hasMore", true);
        assertThat(list(crowdedAnswer.data().get("actions"))).hasSize(100);

        Answer quietAnswer = call("GET", otherProject(), "/actions/from-prompt?promptId=" + quiet, otherKey(), null);
        assertThat(quietAnswer.status()).isEqualTo(200);
        assertThat(quietAnswer.data()).containsEntry("hasMore", false);
        List<Map<String, Object>> linked = list(quietAnswer.data().get("actions"));
        assertThat(ids(linked)).containsExactlyInAnyOrder(oneId, twoId);
        // spec 2.5: the fields of a prompt-linked action
        assertThat(linked).allSatisfy(a -> assertThat(a.keySet()).containsExactlyInAnyOrder("id", "title", "status",
                "suggestionStatus", "briefStatus", "hidden", "canGenerateBrief", "canRestore",
                "requiresHighStakesAcknowledgement", "relationship", "supportingPromptCount"));
        assertThat(byId(linked, oneId)).containsEntry("relationship", "evidence").containsEntry("supportingPromptCount", 2)
                .containsEntry("status", "suggested").containsEntry("hidden", false);
        assertThat(byId(linked, twoId)).containsEntry("supportingPromptCount", 1);

        assertBadParameter(call("GET", otherProject(), "/actions/from-prompt", otherKey(), null), "promptId");
        assertBadParameter(call("GET", otherProject(), "/actions/from-prompt?promptId=nope", otherKey(), null), "promptId");
        // the seeded project's actions are its own: nothing is linked to the other project's prompt there
        Answer elsewhere = get("/actions/from-prompt?promptId=" + quiet, 200);
        assertThat(elsewhere.data()).containsEntry("hasMore", false).containsEntry("actions", List.of());
    }

    // --- brief and events routes, writes and their events -----------------------------------------

    @Test
    void briefAndEventsHistoryRoutes() {
        String rec = unique("brief");
        Map<String, Object> candidate = recommendation(project(), rec, unique("fam"), 100, 0.5, 0.5, List.of(UUID.randomUUID().toString()));
        candidate.put("brief", Map.of("summary", "Rewrite the H1", "steps", List.of(Map.of("heading", "H1", "body", "Name the product")),
                "generatedAt", "2026-11-20T09:00:00Z", "updatedAt", "2026-11-21T09:00:00Z"));
        Kafka.publish(Topics.RECOMMENDATIONS, project(), candidate);
        String id = awaitRecommendation(project(), rec);

        Map<String, Object> brief = envelope(get("/actions/" + id + "/brief", 200), project());
        assertThat(brief).containsOnlyKeys("actionId", "title", "status", "readiness", "brief")
                .containsEntry("actionId", id).containsEntry("status", "suggested");
        assertThat(map(brief.get("readiness"))).containsEntry("hasBrief", true).containsEntry("status", "ready");
        assertThat(map(brief.get("brief"))).containsEntry("summary", "Rewrite the H1");

        patch("/actions/" + id, Map.of("priority", "low"), 200);
        patch("/actions/" + id, Map.of("status", "accepted"), 200);
        // E17: the events path reports who changed an action and what, newest first
        Map<String, Object> history = envelope(get("/actions/" + id + "/events?pageSize=2", 200), project());
        assertThat(map(history.get("pagination"))).containsEntry("totalCount", 3).containsEntry("totalPages", 2);
        List<Map<String, Object>> entries = list(history.get("events"));
        assertThat(entries).extracting(e -> e.get("type")).containsExactly("updated", "updated");
        assertThat(entries.get(0)).containsEntry("changedFields", List.of("status")).containsEntry("origin", "user");
        assertThat(list(entries.get(0).get("changes"))).containsExactly(Map.of("field", "status", "from", "suggested", "to", "accepted"));
        assertThat(entries.get(1)).containsEntry("changedFields", List.of("priority"));
        Map<String, Object> oldest = list(envelope(get("/actions/" + id + "/events?pageSize=2&page=2", 200), project()).get("events")).get(0);
        assertThat(oldest).containsEntry("type", "created").containsEntry("origin", "system");

        // another project's key, unknown ids and bad ids
        assertError(call("GET", otherProject(), "/actions/" + id + "/brief", otherKey(), null), 404, "not_found");
        assertError(call("GET", otherProject(), "/actions/" + id + "/events", otherKey(), null), 404, "not_found");
        assertError(get("/actions/" + UUID.randomUUID() + "/brief"), 404, "not_found");
        assertError(get("/actions/" + UUID.randomUUID() + "/events"), 404, "not_found");
        assertBadParameter(get("/actions/not-a-uuid/brief"), "actionId");
    }

    @Test
    void writesMoveAnActionThroughItsStatusesAndFireActionEventsPerSchema() {
        Answer created = post("/actions", Map.of("title", "Rewrite the pricing page", "description", "Name the product in the H1",
                "channels", List.of("content"), "priority", "high", "targetLabel", "Pricing page"), 201);
        Map<String, Object> action = envelope(created, project());
        String id = (String) action.get("id");
        assertThat(action).containsEntry("status", "suggested").containsEntry("priority", "high")
                .containsEntry("targetLabel", "Pricing page").containsEntry("blocked", false).containsEntry("portfolioRank", null);

        assertThat(envelope(patch("/actions/" + id, Map.of("priority", "low"), 200), project())).containsEntry("priority", "low");
        assertThat(envelope(patch("/actions/" + id, Map.of("status", "accepted"), 200), project())).containsEntry("status", "accepted");
        assertThat(envelope(patch("/actions/" + id, Map.of("blocked", true), 200), project())).containsEntry("blocked", true);
        // leaving accepted unblocks: blocked is true only on accepted work (spec 3)
        assertThat(envelope(patch("/actions/" + id, Map.of("status", "live"), 200), project()))
                .containsEntry("status", "live").containsEntry("blocked", false);
        // an invalid transition is 400 naming status, and changes nothing
        assertBadParameter(call("PATCH", project(), "/actions/" + id, key(), Map.of("status", "suggested")), "status");
        assertBadParameter(call("PATCH", project(), "/actions/" + id, key(), Map.of("priority", "urgent")), "priority");
        assertBadParameter(call("POST", project(), "/actions", key(), Map.of("title", "T", "description", "D",
                "channels", List.of("Not A Channel"), "priority", "low")), "channels");
        assertError(call("PATCH", project(), "/actions/" + UUID.randomUUID(), key(), Map.of("priority", "low")), 404, "not_found");
        assertError(call("PATCH", project(), "/actions/" + id, otherKey(), Map.of("priority", "low")), 404, "not_found");

        // spec 6: action.created, then one action.updated per real change with its changedFields
        List<Event> events = Kafka.awaitPublicEvents(r -> project().equals(r.key()) && r.value().contains(id), 5, WITHIN)
                .stream().map(ActionsSystemTest::event).toList();
        assertThat(events).extracting(Event::type).containsExactly("action.created", "action.updated", "action.updated",
                "action.updated", "action.updated");
        assertThat(events.subList(1, 5)).extracting(e -> e.data().get("changedFields")).containsExactly(
                List.of("priority"), List.of("status"), List.of("blocked"), List.of("status", "blocked"));
        events.forEach(ActionsSystemTest::assertSchema);
        Event first = events.get(0);
        assertThat(first.body()).containsEntry("projectId", project()).containsEntry("accountId", account());
        assertThat(first.data()).containsEntry("actionId", id).containsEntry("origin", "user").containsEntry("changedFields", List.of());
        assertThat(map(first.data().get("links"))).containsEntry("apiActionContext",
                "/api/v2/projects/" + project() + "/actions/list?detailLevel=context");
        assertThat(map(events.get(4).data().get("action"))).containsEntry("status", "live");
    }

    @Test
    void reorderWordingOnlyChangesAndAnUntouchedWithdrawalFireNothing() {
        String family = unique("fam");
        String watched = unique("watched");
        String withdrawn = unique("withdrawn");
        Map<String, Object> candidate = recommendation(project(), watched, family, 100, 0.5, 0.5, List.of(UUID.randomUUID().toString()));
        Kafka.publish(Topics.RECOMMENDATIONS, project(), candidate,
                recommendation(project(), withdrawn, family, 50, 0.5, 0.5, List.of(UUID.randomUUID().toString())));
        String watchedId = awaitRecommendation(project(), watched);
        String withdrawnId = awaitRecommendation(project(), withdrawn);

        // spec 6: no event for a reorder (a stronger candidate of the family outranks it), evidence
        // reorder or wording-only changes (whyNow), nor for a suggestion withdrawn before anyone acted on it
        Map<String, Object> reworded = next(candidate);
        reworded.put("whyNow", "Reworded: citations fell again this week.");
        String stronger = unique("stronger");
        String sentinel = unique("sentinel");
        Kafka.publish(Topics.RECOMMENDATIONS, project(),
                recommendation(project(), stronger, family, 5000, 0.9, 0.9, List.of(UUID.randomUUID().toString())),
                reworded,
                withdraw(project(), withdrawn),
                // applied after the records above (one key, one partition): once its events are out, theirs would be too
                recommendation(project(), sentinel, unique("fam"), 100, 0.5, 0.5, List.of(UUID.randomUUID().toString())));
        awaitRecommendation(project(), sentinel);

        assertThat(eventsOf(project(), watchedId)).extracting(Event::type)
                .containsExactlyInAnyOrder("action.created", "action.recommendation.created");
        assertThat(eventsOf(project(), withdrawnId)).extracting(Event::type)
                .containsExactlyInAnyOrder("action.created", "action.recommendation.created");
        // the changes were applied all the same: the new wording is listed, the withdrawn suggestion is gone
        List<Map<String, Object>> all = wholeList("");
        assertThat(byId(all, watchedId)).containsEntry("whyNow", "Reworded: citations fell again this week.");
        assertThat(ids(all)).doesNotContain(withdrawnId);
        assertError(get("/actions/" + withdrawnId + "/brief"), 404, "not_found");
    }

    @Test
    @SuppressWarnings("unchecked")
    void acceptanceEvidenceReorderSmallCitationDriftAndBriefAbsenceFireNoRecommendationUpdate() {
        String family = unique("fam");
        String steady = unique("steady");
        String adopted = unique("adopted");
        List<String> prompts = List.of(UUID.randomUUID().toString(), UUID.randomUUID().toString());
        Map<String, Object> candidate = recommendation(project(), steady, family, 100, 0.5, 0.5, prompts);
        Map<String, Object> evidence = new LinkedHashMap<>(map(candidate.get("evidence")));
        evidence.put("topEvidence", List.of(evidenceItem(prompts), evidenceItem(prompts)));
        candidate.put("evidence", evidence);
        candidate.put("brief", Map.of("summary", "Rewrite the H1", "steps", List.of(Map.of("heading", "H1", "body", "Name it")),
                "generatedAt", "2026-11-20T09:00:00Z", "updatedAt", "2026-11-21T09:00:00Z"));
        Kafka.publish(Topics.RECOMMENDATIONS, project(), candidate,
                recommendation(project(), adopted, family, 100, 0.4, 0.5, List.of(UUID.randomUUID().toString())));
        String steadyId = awaitRecommendation(project(), steady);
        String adoptedId = awaitRecommendation(project(), adopted);

        // spec 6: acceptance is an action change (action.updated), never a recommendation update
        patch("/actions/" + adoptedId, Map.of("status", "accepted"), 200);
        // the same recommendation with its evidence reordered, its citations drifting by one and no brief
        Map<String, Object> drifted = next(candidate);
        List<Map<String, Object>> items = new ArrayList<>(list(map(drifted.get("evidence")).get("topEvidence")));
        Collections.reverse(items);
        Map<String, Object> loss = map(items.get(0).get("citationLoss"));
        loss.put("currentCitationCount", ((Number) loss.get("currentCitationCount")).intValue() + 1);
        Map<String, Object> cell = list(loss.get("cells")).get(0);
        cell.put("currentCitationCount", ((Number) cell.get("currentCitationCount")).intValue() + 1);
        map(drifted.get("evidence")).put("topEvidence", items);
        drifted.put("brief", null);
        String sentinel = unique("sentinel");
        Kafka.publish(Topics.RECOMMENDATIONS, project(), drifted,
                recommendation(project(), sentinel, unique("fam"), 100, 0.5, 0.5, List.of(UUID.randomUUID().toString())));
        awaitRecommendation(project(), sentinel);

        assertThat(eventsOf(project(), steadyId)).extracting(Event::type)
                .containsExactlyInAnyOrder("action.created", "action.recommendation.created");
        List<Event> adoptedEvents = eventsOf(project(), adoptedId);
        assertThat(adoptedEvents).extracting(Event::type)
                .containsExactlyInAnyOrder("action.created", "action.recommendation.created", "action.updated");
        Event accepted = adoptedEvents.stream().filter(e -> e.type().equals("action.updated")).findFirst().orElseThrow();
        assertThat(accepted.data()).containsEntry("changedFields", List.of("status"));
        assertSchema(accepted);
        // the drifted record was applied all the same: the evidence is listed in its new order
        List<Map<String, Object>> listed = list(map(byId(wholeList("&detailLevel=context"), steadyId).get("context")).get("topEvidence"));
        assertThat(ids(listed)).containsExactlyElementsOf(ids(items));
    }
}
