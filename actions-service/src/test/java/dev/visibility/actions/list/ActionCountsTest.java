package dev.visibility.actions.list;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.visibility.actions.action.ActionRepository;
import dev.visibility.actions.support.ActionsTest;
import dev.visibility.actions.support.Candidates;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * E3's {@code pagination.totalCount} (spec 2.4, E3) comes from count deltas kept by triggers
 * (V3__action_counts.sql), not from counting rows: it must equal the rows there are, per status and
 * in all, after concurrent creates, transitions and withdrawals, with compactions running meanwhile.
 */
class ActionCountsTest extends ActionsTest {

    private static final List<String> STATUSES = List.of("suggested", "accepted", "live", "archived");

    @Autowired
    ActionRepository actions;

    @Test
    void totalCountEqualsTheRowsAfterConcurrentWritesAndCompactions() throws Exception {
        UUID project = UUID.randomUUID();
        // recommendations: 6 suggested, 2 of them withdrawn later (removed, as nobody acted on them)
        List<Map<String, Object>> candidates = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            candidates.add(Candidates.upsert(project, "r" + i, "prompt_gap", 100, 0.1 * (i + 1), 0.5, List.of(UUID.randomUUID()), 3));
        }
        publish(project, candidates.toArray(Map[]::new));
        sync(project);

        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(5);
        try {
            Future<Long> compactions = pool.submit(() -> {
                long rounds = 0;
                while (writing.get()) {
                    actions.compactCounts().block();
                    rounds++;
                }
                return rounds;
            });
            List<Future<String>> created = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                int n = i;
                created.add(pool.submit(() -> {
                    String id = String.valueOf(createAction(project, "Counted " + n).get("id"));
                    // 0: stays suggested; 1: accepted; 2: live; 3: archived
                    if (n % 4 >= 1) {
                        patch(project, id, Map.of("status", "accepted"), 200);
                    }
                    if (n % 4 == 2) {
                        patch(project, id, Map.of("status", "live"), 200);
                    }
                    if (n % 4 == 3) {
                        patch(project, id, Map.of("status", "archived"), 200);
                    }
                    return id;
                }));
            }
            for (Future<String> f : created) {
                f.get();
            }
            publish(project, Candidates.withdraw(project, "r0"), Candidates.withdraw(project, "r1"));
            sync(project);
            writing.set(false);
            assertThat(compactions.get()).isPositive();
        } finally {
            pool.shutdownNow();
        }

        // 40 by the team + 6 recommendations - 2 withdrawn + 1 sentinel per sync (2)
        Map<String, Long> expected = rowsPerStatus(project);
        assertThat(expected.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(46);
        assertThat(expected).containsEntry("accepted", 10L).containsEntry("live", 10L).containsEntry("archived", 10L);
        assertTotals(project, expected);

        actions.compactCounts().block();
        Long deltaRows = db.sql("SELECT count(*) FROM action_count_deltas WHERE project_id = :p").bind("p", project)
                .map(row -> row.get(0, Long.class)).one().block();
        assertThat(deltaRows).isEqualTo(4);
        assertTotals(project, expected);

        // a create is counted at once, compacted or not
        createAction(project, "One more");
        assertThat(totalCount(project, "")).isEqualTo(47);
        assertThat(totalCount(project, "&status=suggested")).isEqualTo(expected.get("suggested") + 1);
    }

    private void assertTotals(UUID project, Map<String, Long> expected) {
        long all = 0;
        for (String status : STATUSES) {
            long rows = expected.getOrDefault(status, 0L);
            assertThat(totalCount(project, "&status=" + status)).as(status).isEqualTo(rows);
            all += rows;
        }
        assertThat(totalCount(project, "")).isEqualTo(all);
    }

    private long totalCount(UUID project, String query) {
        Map<String, Object> pagination = map(data(get(project, "/actions/list?pageSize=1" + query, 200)).get("pagination"));
        return ((Number) pagination.get("totalCount")).longValue();
    }

    private Map<String, Long> rowsPerStatus(UUID project) {
        Map<String, Long> rows = new LinkedHashMap<>();
        db.sql("SELECT status, count(*) AS n FROM actions WHERE project_id = :p GROUP BY status").bind("p", project)
                .map(row -> Map.entry(row.get("status", String.class), row.get("n", Long.class)))
                .all().doOnNext(e -> rows.put(e.getKey(), e.getValue())).blockLast();
        return rows;
    }
}
