package dev.visibility.actions.list;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.visibility.actions.action.ActionRepository;
import dev.visibility.actions.action.ActionRepository.ListState;
import dev.visibility.actions.action.ActionStatus;
import dev.visibility.actions.config.ActionsProperties;
import dev.visibility.actions.support.ActionsTest;
import dev.visibility.actions.support.Candidates;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.ObjectMapper;

/**
 * E3's pages kept rendered ({@link ActionListPages}): a kept page is answered while the project's
 * actions stay as they are, every write path changes the version of the project's actions
 * (V5__action_changes.sql), so the next read has the change, and under concurrent writes and reads
 * the page answered once the writes stop is the page rendered afresh.
 */
class ActionListPagesTest extends ActionsTest {

    @Autowired
    ActionRepository actions;

    @Autowired
    ActionListPages pages;

    @Autowired
    ObjectMapper mapper;

    @Test
    void everyCommittedChangeOfAProjectsActionsChangesItsVersionAndNothingElseDoes() {
        UUID project = UUID.randomUUID();
        List<ListState.Version> seen = new ArrayList<>();
        seen.add(version(project));
        assertThat(seen.get(0)).isEqualTo(new ListState.Version(0, 0));

        // the team's writes: a create, an edit, a status change
        String id = String.valueOf(createAction(project, "Kept page").get("id"));
        assertChanged(project, seen);
        patch(project, id, Map.of("targetLabel", "Kept page, relabelled"), 200);
        assertChanged(project, seen);
        patch(project, id, Map.of("status", "accepted"), 200);
        assertChanged(project, seen);

        // recommendations: an insert, an update of the same recommendation, a withdrawal (a delete)
        publish(project, Candidates.upsert(project, "r1", "prompt_gap", 100, 0.2, 0.5, List.of(UUID.randomUUID()), 3));
        String recommended = awaitAction(project, "r1");
        assertChanged(project, seen);
        publish(project, Candidates.upsert(project, "r1", "prompt_gap", 900, 0.4, 0.5, List.of(UUID.randomUUID()), 3));
        await("the changed opportunity stored", () -> Integer.valueOf(900).equals(reachOf(recommended)));
        assertChanged(project, seen);
        publish(project, Candidates.withdraw(project, "r1"));
        await("the withdrawn recommendation removed", () -> actionIdOf(project, "r1") == null);
        assertChanged(project, seen);

        // once the ranks are recomputed, nothing moves the version: another project's write, an
        // update of no row, a compaction of the change rows (the last id moves, the sum does not)
        await("no rank recomputation pending", () -> db.sql("SELECT count(*) FROM rank_pending WHERE project_id = :p")
                .bind("p", project).map(row -> row.get(0, Long.class)).one().block() == 0);
        ListState.Version settled = version(project);
        createAction(UUID.randomUUID(), "Another project's");
        db.sql("UPDATE actions SET title = title WHERE project_id = :p AND false").bind("p", project).then().block();
        assertThat(version(project)).isEqualTo(settled);
        actions.compactChanges().block();
        assertThat(db.sql("SELECT count(*) FROM action_changes WHERE project_id = :p").bind("p", project)
                .map(row -> row.get(0, Long.class)).one().block()).isEqualTo(1);
        assertThat(version(project).changes()).isEqualTo(settled.changes());
    }

    @Test
    void aKeptPageIsAnsweredUntilAnActionOfTheProjectChanges() {
        UUID project = UUID.randomUUID();
        String first = String.valueOf(createAction(project, "First").get("id"));
        createAction(project, "Second");

        RenderedJson page = pages.page(project, null, 1, 25, true).block();
        assertThat(pages.page(project, null, 1, 25, true).block()).isSameAs(page);
        // another query of the same project is a page of its own
        assertThat(pages.page(project, null, 1, 1, true).block()).isNotSameAs(page);
        assertThat(pages.page(project, null, 1, 25, false).block()).isNotSameAs(page);

        patch(project, first, Map.of("targetLabel", "First, relabelled"), 200);
        List<Map<String, Object>> listed = list(data(get(project, "/actions/list?detailLevel=context", 200)).get("actions"));
        assertThat(listed).extracting(a -> a.get("title"), a -> a.get("targetLabel"))
                .containsExactly(Tuple.tuple("First", "First, relabelled"), Tuple.tuple("Second", null));
        assertThat(pages.page(project, null, 1, 25, true).block()).isNotSameAs(page);

        // the answer is the {data, meta} envelope with data as rendered (spec 1, E3)
        Map<String, Object> envelope = get(project, "/actions/list?detailLevel=context", 200);
        assertThat(envelope).containsOnlyKeys("data", "meta");
        assertThat(map(envelope.get("meta"))).containsEntry("projectId", project.toString()).containsKey("timestamp");
        assertThat(envelope.get("data")).isEqualTo(parse(pages.page(project, null, 1, 25, true).block()));
    }

    @Test
    void afterConcurrentWritesAndReadsThePageAnsweredIsThePageRenderedAfresh() throws Exception {
        UUID project = UUID.randomUUID();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            ids.add(String.valueOf(createAction(project, "Action " + i).get("id")));
        }
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> readers = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                readers.add(pool.submit(() -> {
                    int reads = 0;
                    while (writing.get()) {
                        get(project, "/actions/list?detailLevel=context&pageSize=5&page=2", 200);
                        get(project, "/actions/list?status=accepted", 200);
                        reads++;
                    }
                    return reads;
                }));
            }
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                int writer = w;
                writers.add(pool.submit(() -> {
                    for (int round = 0; round < 15; round++) {
                        String id = ids.get((writer * 5 + round) % ids.size());
                        patch(project, id, Map.of("targetLabel", "Labelled by " + writer + " in round " + round), 200);
                        if (round == 0) {
                            patch(project, id, Map.of("status", "accepted"), 200);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> w : writers) {
                w.get();
            }
            writing.set(false);
            for (Future<Integer> r : readers) {
                assertThat(r.get()).isPositive();
            }
        } finally {
            pool.shutdownNow();
        }

        ActionListPages afresh = new ActionListPages(actions, mapper, new ActionsProperties(null, null, null, null, null, null, null, 0L));
        assertThat(data(get(project, "/actions/list?detailLevel=context&pageSize=5&page=2", 200)))
                .isEqualTo(parse(afresh.page(project, null, 2, 5, true).block()));
        Integer accepted = ActionStatus.fromWire("accepted").ordinal();
        assertThat(data(get(project, "/actions/list?status=accepted", 200)))
                .isEqualTo(parse(afresh.page(project, accepted, 1, 25, false).block()));
    }

    private ListState.Version version(UUID project) {
        return actions.listState(project, null).block().version();
    }

    private void assertChanged(UUID project, List<ListState.Version> seen) {
        ListState.Version now = version(project);
        assertThat(seen).doesNotContain(now);
        seen.add(now);
    }

    private Integer reachOf(String actionId) {
        return db.sql("SELECT (opportunity -> 'components' -> 'reach' ->> 'value')::numeric::int FROM actions WHERE id = :id")
                .bind("id", UUID.fromString(actionId)).map(row -> row.get(0, Integer.class)).one().block();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> parse(RenderedJson json) {
        return mapper.readValue(json.json(), Map.class);
    }
}
