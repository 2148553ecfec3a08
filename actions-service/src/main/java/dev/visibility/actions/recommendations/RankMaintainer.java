package dev.visibility.actions.recommendations;

import java.time.Duration;
import java.util.UUID;

import dev.visibility.actions.config.ActionsProperties;
import dev.visibility.platform.db.DatabaseWakeups;
import dev.visibility.platform.db.WakeableLoop;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Maintains portfolio ranks and percentile pools. Changes mark their project in
 * {@code rank_pending} (in their own transaction); this loop works the marks off, one project
 * per transaction, so ten thousand recommendations arriving together cost one recomputation per
 * interval instead of one each. A mark wakes the loop at once (a trigger notifies
 * {@link DatabaseWakeups}), and marks made within {@code rank-interval} of a recomputation wait for
 * the next one. Ranks are derived data: a recomputation sends no event (spec 6:
 * a reorder never fires).
 * <p>
 * Pools: the rankable open suggestions (status suggested, not hidden, percentileStatus ranked) of
 * one signal family; percentile = 100 × cume_dist of the score within the family, one decimal;
 * pool size = the family's count. Rank: 1… over all families, by percentile descending, then score
 * descending, creation time, id (families are interleaved by percentile). Open suggestions that
 * are not rankable lose their rank; actions that left the suggested status keep the rank they had.
 */
@Component
public class RankMaintainer implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(RankMaintainer.class);
    /** Projects taken per round. */
    private static final int BATCH = 20;

    private final DatabaseClient db;
    private final TransactionalOperator tx;
    private final ActionsProperties properties;
    private final DatabaseWakeups wakeups;
    private volatile boolean running;
    private volatile Disposable loop;

    public RankMaintainer(DatabaseClient db, TransactionalOperator tx, ActionsProperties properties,
            DatabaseWakeups wakeups) {
        this.db = db;
        this.wakeups = wakeups;
        this.tx = tx;
        this.properties = properties;
    }

    /**
     * Recomputes every pending project; answers how many were done. The marks are taken in one
     * short transaction and each project is recomputed in its own, so the recomputation never holds
     * a mark while it waits for action rows (a write holds its row, then marks: the opposite order).
     * A change committed after its mark was taken marks the project again for the next round.
     */
    public Mono<Long> runOnce() {
        return tx.transactional(db.sql("""
                        DELETE FROM rank_pending WHERE project_id IN
                            (SELECT project_id FROM rank_pending ORDER BY since LIMIT :batch FOR UPDATE SKIP LOCKED)
                        RETURNING project_id""")
                .bind("batch", BATCH)
                .map(row -> row.get(0, UUID.class)).all().collectList())
                .flatMapMany(Flux::fromIterable)
                .concatMap(project -> tx.transactional(recompute(project))
                        .onErrorResume(e -> {
                            log.warn("Rank recomputation of project {} failed, will retry: {}", project, e.toString());
                            return db.sql("INSERT INTO rank_pending (project_id) VALUES (:project) ON CONFLICT DO NOTHING")
                                    .bind("project", project).then();
                        })
                        .thenReturn(project))
                .count();
    }

    /** Recomputes one project's ranks and pools now (inside the caller's transaction, if any). */
    public Mono<Void> recompute(UUID project) {
        Mono<Void> unrank = db.sql("""
                UPDATE actions SET portfolio_rank = NULL, percentile = NULL, percentile_pool_size = NULL
                WHERE project_id = :project AND status = 'suggested' AND NOT hidden
                  AND percentile_status IS DISTINCT FROM 'ranked'
                  AND (portfolio_rank IS NOT NULL OR percentile IS NOT NULL OR percentile_pool_size IS NOT NULL)""")
                .bind("project", project).then();
        Mono<Void> rank = db.sql("""
                WITH pool AS (
                    SELECT id, score, created_at,
                           round((100.0 * cume_dist() OVER (PARTITION BY family ORDER BY score))::numeric, 1)::float8 AS pct,
                           (count(*) OVER (PARTITION BY family))::int AS pool_size
                    FROM actions
                    WHERE project_id = :project AND family IS NOT NULL AND percentile_status = 'ranked'
                      AND status = 'suggested' AND NOT hidden),
                ranked AS (
                    SELECT id, pct, pool_size,
                           (row_number() OVER (ORDER BY pct DESC, score DESC, created_at, id))::int AS rnk
                    FROM pool)
                UPDATE actions a SET percentile = r.pct, percentile_pool_size = r.pool_size, portfolio_rank = r.rnk
                FROM ranked r
                WHERE a.id = r.id AND (a.percentile IS DISTINCT FROM r.pct
                    OR a.percentile_pool_size IS DISTINCT FROM r.pool_size OR a.portfolio_rank IS DISTINCT FROM r.rnk)""")
                .bind("project", project).then();
        return unrank.then(rank);
    }

    @Override
    public void start() {
        running = true;
        Duration interval = properties.rankInterval();
        WakeableLoop rounds = new WakeableLoop(wakeups.of("rank_pending"), wakeups::listening, interval,
                properties.rankIdleInterval(), interval, interval, Schedulers.parallel());
        loop = rounds.start(() -> runOnce().map(projects -> projects >= BATCH),
                e -> log.warn("Rank recomputation failed, will retry: {}", e.toString()));
    }

    @Override
    public void stop() {
        running = false;
        Disposable current = loop;
        if (current != null) {
            current.dispose();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
