package dev.visibility.actions.action;

import java.time.Duration;

import dev.visibility.actions.config.ActionsProperties;
import dev.visibility.platform.db.WakeableLoop;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import reactor.core.Disposable;
import reactor.core.scheduler.Schedulers;

/**
 * Sums up the count deltas of E3's totalCount at start and every {@code suite.actions.count-compaction-interval}
 * (V3__action_counts.sql), so that a count reads at most one row per status, and the change rows
 * that key E3's rendered pages (V5__action_changes.sql) to one per project. Replicas may run it
 * side by side; a failed round (a deadlock between two of them, say) changes nothing and is
 * simply the next round's work.
 */
@Component
public class ActionCountCompactor implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ActionCountCompactor.class);

    private final ActionRepository actions;
    private final Duration interval;
    private volatile Disposable loop;

    public ActionCountCompactor(ActionRepository actions, ActionsProperties properties) {
        this.actions = actions;
        this.interval = properties.countCompactionInterval();
    }

    @Override
    public void start() {
        loop = WakeableLoop.periodic(interval, Schedulers.parallel())
                .start(() -> actions.compactCounts().then(actions.compactChanges()).thenReturn(false),
                        e -> log.debug("Count compaction failed, the next round retries: {}", e.toString()));
    }

    @Override
    public void stop() {
        Disposable current = loop;
        if (current != null) {
            current.dispose();
        }
    }

    @Override
    public boolean isRunning() {
        Disposable current = loop;
        return current != null && !current.isDisposed();
    }
}
