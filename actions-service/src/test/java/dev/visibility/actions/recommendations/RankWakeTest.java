package dev.visibility.actions.recommendations;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.visibility.actions.action.ActionRepository;
import dev.visibility.actions.support.ActionsTest;
import dev.visibility.platform.db.DatabaseWakeups;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import reactor.core.Disposable;

/**
 * A committed mark in rank_pending (V4__rank_wake.sql) wakes RankMaintainer through the platform's
 * DatabaseWakeups, so ranks follow a change at once rather than at the next poll.
 */
class RankWakeTest extends ActionsTest {

    @Autowired
    DatabaseWakeups wakeups;
    @Autowired
    ActionRepository actions;

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
}
