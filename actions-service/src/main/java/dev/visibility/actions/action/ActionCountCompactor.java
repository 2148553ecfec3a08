package dev.visibility.actions.action;

import java.time.Duration;

import dev.visibility.actions.config.ActionsProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Sums up the count deltas of E3's totalCount every {@code suite.actions.count-compaction-interval}
 * (V3__action_counts.sql), so that a count reads at most one row per status. Replicas may run it
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
        loop = Flux.interval(interval, interval)
                .onBackpressureDrop()
                .concatMap(tick -> actions.compactCounts().onErrorResume(e -> {
                    log.debug("Count compaction failed, the next round retries: {}", e.toString());
                    return Mono.just(0L);
                }), 1)
                .subscribe();
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
