package dev.visibility.actions.list;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.actions.support.ActionsTest;
import dev.visibility.actions.support.Candidates;
import org.junit.jupiter.api.Test;

/** E3 GET …/actions/list: order, status filter, pagination, detail levels, 400s. */
class ActionListTest extends ActionsTest {

    /**
     * A project with ranked recommendations in two signal families (A: scores 1 < 2 < 3; B: 4 < 5
     * times larger), two unranked ones (insufficient reach, different scores) and two created by
     * the team (no score), then one ranked accepted and one ranked archived.
     */
    private record Portfolio(UUID project, Map<String, String> ids) {
    }

    private Portfolio portfolio() {
        UUID project = UUID.randomUUID();
        publish(project,
                Candidates.upsert(project, "a1", "prompt_gap", 100, 0.1, 0.5, List.of(UUID.randomUUID()), 3),   // 5
                Candidates.upsert(project, "a2", "prompt_gap", 100, 0.2, 0.5, List.of(UUID.randomUUID()), 3),   // 10
                Candidates.upsert(project, "a3", "prompt_gap", 100, 0.3, 0.5, List.of(UUID.randomUUID()), 3),   // 15
                Candidates.upsert(project, "b1", "citation_defence", 100, 0.4, 0.5, List.of(UUID.randomUUID()), 3), // 20
                Candidates.upsert(project, "b2", "citation_defence", 100, 0.5, 0.5, List.of(UUID.randomUUID()), 3), // 25
                Candidates.upsert(project, "low1", "prompt_gap", 5, 0.9, 0.9, List.of(UUID.randomUUID()), 3),  // 4.05, unranked
                Candidates.upsert(project, "low2", "prompt_gap", 5, 0.5, 0.5, List.of(UUID.randomUUID()), 3),  // 1.25, unranked
                Candidates.upsert(project, "acc", "prompt_gap", 100, 0.9, 0.9, List.of(UUID.randomUUID()), 3),  // accepted below
                Candidates.upsert(project, "arc", "prompt_gap", 100, 0.8, 0.9, List.of(UUID.randomUUID()), 3)); // archived below
        Map<String, String> ids = new java.util.LinkedHashMap<>();
        for (String key : List.of("a1", "a2", "a3", "b1", "b2", "low1", "low2", "acc", "arc")) {
            ids.put(key, awaitAction(project, key));
        }
        ids.put("user1", String.valueOf(createAction(project, "First by the team").get("id")));
        ids.put("user2", String.valueOf(createAction(project, "Second by the team").get("id")));
        awaitRanks(project, 7);
        patch(project, ids.get("acc"), Map.of("status", "accepted"), 200);
        patch(project, ids.get("arc"), Map.of("status", "archived"), 200);
        awaitRanks(project, 5);
        return new Portfolio(project, ids);
    }

    /** Waits until exactly {@code count} open suggestions carry a rank numbered 1..count. */
    private void awaitRanks(UUID project, long count) {
        await(count + " ranked suggestions", () -> {
            List<Integer> ranks = db.sql("SELECT portfolio_rank FROM actions WHERE project_id = :p AND status = 'suggested'"
                            + " AND portfolio_rank IS NOT NULL ORDER BY portfolio_rank")
                    .bind("p", project).map(row -> row.get(0, Integer.class)).all().collectList().block();
            Long pending = db.sql("SELECT count(*) FROM rank_pending WHERE project_id = :p").bind("p", project)
                    .map(row -> row.get(0, Long.class)).one().block();
            return pending == 0 && ranks.size() == count
                    && ranks.equals(java.util.stream.IntStream.rangeClosed(1, (int) count).boxed().toList());
        }, () -> db.sql("SELECT fingerprint_key || ' ' || status || ' ' || coalesce(portfolio_rank::text, '-') || ' '"
                        + " || coalesce(percentile_status, '-') || ' ' || coalesce(score::text, '-') FROM actions WHERE project_id = :p")
                .bind("p", project).map(row -> row.get(0, String.class)).all().collectList().block()
                + " pending " + db.sql("SELECT count(*) FROM rank_pending WHERE project_id = :p").bind("p", project)
                .map(row -> row.get(0, Long.class)).one().block());
    }

    private List<Map<String, Object>> actions(UUID project, String query) {
        return list(data(get(project, "/actions/list" + query, 200)).get("actions"));
    }

    private static List<Object> ids(List<Map<String, Object>> actions) {
        return actions.stream().map(a -> a.get("id")).toList();
    }

    @Test
    void ordersByRankNullsLastThenScoreCreationAndIdWithSuggestedFirst() {
        Portfolio p = portfolio();
        Map<String, String> id = p.ids();
        List<Map<String, Object>> all = actions(p.project(), "?pageSize=100");
        // E3 ordering: rank ascending (families interleaved by percentile: b2 and a3 are both at 100,
        // b2 scores higher), nulls last ordered by score (low1 > low2), then the team's actions
        // (no score) by creation time; suggested first, then accepted, then archived.
        assertThat(ids(all)).containsExactly(id.get("b2"), id.get("a3"), id.get("a2"), id.get("b1"), id.get("a1"),
                id.get("low1"), id.get("low2"), id.get("user1"), id.get("user2"), id.get("acc"), id.get("arc"));
        assertThat(all.subList(0, 5)).extracting(a -> a.get("portfolioRank")).containsExactly(1, 2, 3, 4, 5);
        assertThat(all.subList(5, 9)).extracting(a -> a.get("portfolioRank")).containsOnlyNulls();
        assertThat(all).extracting(a -> a.get("status")).containsExactly("suggested", "suggested", "suggested",
                "suggested", "suggested", "suggested", "suggested", "suggested", "suggested", "accepted", "archived");
    }

    @Test
    void percentilesAndPoolSizesArePerSignalFamily() {
        Portfolio p = portfolio();
        Map<String, Map<String, Object>> byId = new java.util.HashMap<>();
        actions(p.project(), "?pageSize=100").forEach(a -> byId.put(String.valueOf(a.get("id")), a));
        Map<String, Object> a1 = map(byId.get(p.ids().get("a1")).get("opportunity"));
        Map<String, Object> b2 = map(byId.get(p.ids().get("b2")).get("opportunity"));
        // spec 2.4: pool size counts the rankable candidates of the whole family; scope signal_family
        assertThat(a1).containsEntry("percentile", 33.3).containsEntry("percentilePoolSize", 3)
                .containsEntry("percentileStatus", "ranked").containsEntry("percentileScope", "signal_family");
        assertThat(b2).containsEntry("percentile", 100.0).containsEntry("percentilePoolSize", 2);
        // insufficient reach: no percentile and no pool size, never inferred
        Map<String, Object> low = map(byId.get(p.ids().get("low1")).get("opportunity"));
        assertThat(low).containsEntry("percentileStatus", "insufficient_reach").doesNotContainKeys("percentile", "percentilePoolSize");
    }

    @Test
    void statusFilterListsOneStatusInTheSameOrder() {
        Portfolio p = portfolio();
        assertThat(ids(actions(p.project(), "?status=accepted"))).containsExactly(p.ids().get("acc"));
        assertThat(ids(actions(p.project(), "?status=archived"))).containsExactly(p.ids().get("arc"));
        assertThat(actions(p.project(), "?status=live")).isEmpty();
        List<Map<String, Object>> suggested = actions(p.project(), "?status=suggested&pageSize=3");
        assertThat(ids(suggested)).containsExactly(p.ids().get("b2"), p.ids().get("a3"), p.ids().get("a2"));
        Map<String, Object> pagination = map(data(get(p.project(), "/actions/list?status=suggested&pageSize=3", 200)).get("pagination"));
        assertThat(pagination).containsEntry("page", 1).containsEntry("pageSize", 3).containsEntry("totalCount", 9)
                .containsEntry("totalPages", 3);
    }

    @Test
    void pagesCoverEveryActionOnceAndAPageBeyondTheLastIsEmpty() {
        Portfolio p = portfolio();
        List<Object> all = ids(actions(p.project(), "?pageSize=100"));
        List<Object> paged = new java.util.ArrayList<>();
        for (int page = 1; page <= 3; page++) {
            Map<String, Object> data = data(get(p.project(), "/actions/list?pageSize=4&page=" + page, 200));
            assertThat(map(data.get("pagination"))).containsEntry("page", page).containsEntry("pageSize", 4)
                    .containsEntry("totalCount", 11).containsEntry("totalPages", 3);
            paged.addAll(ids(list(data.get("actions"))));
        }
        assertThat(paged).isEqualTo(all);
        Map<String, Object> beyond = data(get(p.project(), "/actions/list?pageSize=4&page=4", 200));
        assertThat(list(beyond.get("actions"))).isEmpty();
        assertThat(map(beyond.get("pagination"))).containsEntry("page", 4).containsEntry("totalCount", 11).containsEntry("totalPages", 3);
    }

    @Test
    void defaultsArePageOneOfTwentyFiveAndAnEmptyProjectHasNoPages() {
        UUID project = UUID.randomUUID();
        Map<String, Object> envelope = get(project, "/actions/list", 200);
        assertThat(map(envelope.get("meta"))).containsEntry("projectId", project.toString()).containsKey("timestamp");
        assertThat(map(data(envelope).get("pagination"))).containsEntry("page", 1).containsEntry("pageSize", 25)
                .containsEntry("totalCount", 0).containsEntry("totalPages", 0);
        assertThat(list(data(envelope).get("actions"))).isEmpty();
    }

    @Test
    void badParametersAre400NamingTheParameter() {
        UUID project = UUID.randomUUID();
        for (String[] bad : new String[][] {{"page=0", "page"}, {"page=x", "page"}, {"pageSize=0", "pageSize"},
                {"pageSize=101", "pageSize"}, {"pageSize=", "pageSize"}, {"status=done", "status"},
                {"detailLevel=full", "detailLevel"}}) {
            Map<String, Object> body = get(project, "/actions/list?" + bad[0], 400);
            assertThat(body).containsEntry("error", "invalid_request").containsEntry("status", 400);
            assertThat(String.valueOf(body.get("message"))).contains(bad[1]);
        }
    }

    @Test
    void summaryLevelHasTheFieldsOfSpec24WithoutContextOrScores() {
        Portfolio p = portfolio();
        Map<String, Object> b2 = actions(p.project(), "?pageSize=1").get(0);
        assertThat(b2.keySet()).containsExactlyInAnyOrder("id", "title", "description", "channels", "priority", "status",
                "blocked", "assignedTo", "ownerName", "opportunity", "effortScore", "portfolioCategory", "portfolioRank",
                "steeredFromPageUrl", "followUpOf", "createdAt", "updatedAt", "expectedImpact", "primaryCtaKind",
                "targetLabel", "whatChanged", "whyNow", "isCommandCenter");
        assertThat(b2).containsEntry("status", "suggested").containsEntry("blocked", false)
                .containsEntry("isCommandCenter", false).containsEntry("targetLabel", "Pricing page")
                .containsEntry("channels", List.of("content", "technical"));
        Map<String, Object> opportunity = map(b2.get("opportunity"));
        assertThat(opportunity).containsEntry("family", "citation_defence").containsEntry("estimated", false)
                .doesNotContainKey("measurements");
        assertThat(map(map(opportunity.get("components")).get("reach"))).containsEntry("unit", "searches_per_month");
    }

    @Test
    void contextLevelAddsEvidenceMeasurementsBriefReadinessAndFollowUps() {
        UUID project = UUID.randomUUID();
        UUID prompt = UUID.randomUUID();
        publish(project, Candidates.upsert(project, "shipped", "prompt_gap", 100, 0.5, 0.5, List.of(prompt), 3));
        String shippedId = awaitAction(project, "shipped");
        Map<String, Object> followUp = Candidates.upsert(project, "follow", "prompt_gap", 100, 0.4, 0.5, List.of(prompt), 3);
        followUp.put("followUpOf", Map.of("actionId", shippedId, "title", "Win back citations for shipped",
                "shippedAt", "2026-11-01T00:00:00Z"));
        publish(project, followUp);
        String followId = awaitAction(project, "follow");

        Map<String, Map<String, Object>> byId = new java.util.HashMap<>();
        actions(project, "?detailLevel=context").forEach(a -> byId.put(String.valueOf(a.get("id")), a));
        Map<String, Object> shipped = byId.get(shippedId);
        Map<String, Object> context = map(shipped.get("context"));
        assertThat(context.keySet()).containsExactlyInAnyOrder("topEvidence", "winningPages", "briefReadiness", "followUps");
        Map<String, Object> evidence = list(context.get("topEvidence")).get(0);
        assertThat(evidence.keySet()).containsExactlyInAnyOrder("id", "title", "summary", "type", "audit", "citationLoss",
                "googleEligibility");
        assertThat(map(map(evidence.get("googleEligibility")).get("dimensions"))).containsEntry("canonical", "pass");
        assertThat(map(map(evidence.get("audit")).get("sectionAssessment"))).containsEntry("status", "complete");
        assertThat(list(map(evidence.get("citationLoss")).get("cells")).get(0)).containsEntry("promptId", prompt.toString());
        assertThat(list(context.get("winningPages")).get(0)).containsEntry("assetType", "competitor");
        Map<String, Object> readiness = map(context.get("briefReadiness"));
        assertThat(readiness).containsEntry("hasBrief", false).containsEntry("status", null)
                .containsEntry("generatedAt", null).containsEntry("updatedAt", null);
        assertThat(list(context.get("followUps"))).containsExactly(Map.of("actionId", followId,
                "title", "Win back citations for follow", "status", "suggested"));
        assertThat(map(shipped.get("opportunity"))).containsKey("measurements");
        assertThat(map(byId.get(followId).get("followUpOf"))).containsEntry("actionId", shippedId)
                .containsEntry("shippedAt", "2026-11-01T00:00:00Z");
    }

    @Test
    void aChangedOpportunityOrEvidenceIsListedAtOnce() {
        // the repository keeps parsed jsonb by its text: a changed value must never be served from memory
        UUID project = UUID.randomUUID();
        UUID prompt = UUID.randomUUID();
        publish(project, Candidates.upsert(project, "changing", "prompt_gap", 100, 0.5, 0.5, List.of(prompt), 3));
        awaitAction(project, "changing");
        Map<String, Object> before = actions(project, "?detailLevel=context").get(0);
        assertThat(reach(before)).isEqualTo(100.0);
        assertThat(currentCitations(before)).isEqualTo(3);

        publish(project, Candidates.upsert(project, "changing", "prompt_gap", 5000, 0.5, 0.5, List.of(prompt), 1));
        sync(project);
        Map<String, Object> after = actions(project, "?detailLevel=context").get(0);
        assertThat(after.get("id")).isEqualTo(before.get("id"));
        assertThat(reach(after)).isEqualTo(5000.0);
        assertThat(currentCitations(after)).isEqualTo(1);
        assertThat(reach(actions(project, "").get(0))).isEqualTo(5000.0);
    }

    private static Object reach(Map<String, Object> action) {
        return ((Number) map(map(map(action.get("opportunity")).get("components")).get("reach")).get("value")).doubleValue();
    }

    private static Object currentCitations(Map<String, Object> action) {
        Map<String, Object> evidence = list(map(action.get("context")).get("topEvidence")).get(0);
        return ((Number) map(evidence.get("citationLoss")).get("currentCitationCount")).intValue();
    }
}
