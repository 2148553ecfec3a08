package dev.visibility.actions.recommendations;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.visibility.actions.action.ActionRepository;
import dev.visibility.actions.config.ActionsProperties;
import dev.visibility.actions.support.ActionsTest;
import dev.visibility.platform.db.DatabaseWakeups;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import tools.jackson.databind.ObjectMapper;

/**
 * A committed mark in rank_pending wakes RankMaintainer through the platform's DatabaseWakeups, so
 * ranks follow a change at once rather than at the next poll: by the table's trigger
 * (V4__rank_wake.sql) when it LISTENs, by the repository's mark itself when wake-ups come in
 * process (the local suite's {@code suite.wakeups.listen=false}).
 */
class RankWakeTest extends ActionsTest {

    @Autowired
    DatabaseWakeups wakeups;
    @Autowired
    ActionRepository actions;
    @Autowired
    ObjectMapper mapper;
    @Autowired
    ActionsProperties properties;
    @Autowired
    ReactiveTransactionManager transactions;

    @Test
    void aCommittedRankMarkWakesTheRankMaintainer() {
        await("the wake-up connection", wakeups::listening);
        assertThat(wakeups.channel()).isEqualTo("wake.actions");
        List<String> seen = new CopyOnWriteArrayList<>();
        Disposable subscription = wakeups.of("rank_pending").filter("rank_pending"::equals).subscribe(seen::add);
        try {
            actions.markRanksPending(UUID.randomUUID()).block();
            await("a rank_pending wake-up", () -> !seen.isEmpty());
        } finally {
            subscription.dispose();
        }
    }

    @Test
    void inProcessAMarkWakesTheRankMaintainerWhenItsTransactionCommitsAndNotWhenItRollsBack() {
        DatabaseWakeups local = DatabaseWakeups.inProcess();
        ActionRepository repository = new ActionRepository(db, mapper, properties, local);
        TransactionalOperator tx = TransactionalOperator.create(transactions);
        List<String> seen = new CopyOnWriteArrayList<>();
        local.start();
        Disposable subscription = local.of("rank_pending").subscribe(seen::add);
        try {
            tx.transactional(repository.markRanksPending(UUID.randomUUID())
                    .then(Mono.error(new IllegalStateException("rolled back")))).onErrorResume(e -> Mono.empty()).block();
            assertThat(seen).isEmpty();

            tx.transactional(repository.markRanksPending(UUID.randomUUID())
                    .then(Mono.fromRunnable(() -> assertThat(seen).isEmpty()))).block();
            assertThat(seen).containsExactly("rank_pending");
        } finally {
            subscription.dispose();
            local.stop();
        }
    }
}
