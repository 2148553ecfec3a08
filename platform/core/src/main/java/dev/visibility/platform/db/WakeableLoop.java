package dev.visibility.platform.db;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * A background worker's loop: runs a task when woken (a database notification), and polls as a
 * safety net, often while wake-ups are not arriving and rarely while they are. Wake-ups that arrive
 * while the task runs are folded into one more run after it, so none is lost and a burst of commits
 * costs a few runs, not one each. A task answers {@code true} when it left work behind (a full
 * batch) and runs again at once; a failed run is reported and retried after a back-off.
 *
 * @param wakeups          signals that there may be work (see {@link DatabaseWakeups#of(String)})
 * @param listening        whether wake-ups arrive now; when not, the loop polls at {@code pollInterval}
 * @param pollInterval     the polling interval without wake-ups
 * @param idlePollInterval the polling interval with them (a safety net)
 * @param minGap           the least time between the end of one run and the start of the next,
 *                         to batch a stream of wake-ups (zero: none)
 * @param failureBackoff   the pause after a failed run
 */
public record WakeableLoop(Flux<?> wakeups, BooleanSupplier listening, Duration pollInterval, Duration idlePollInterval,
        Duration minGap, Duration failureBackoff, Scheduler scheduler) {

    public WakeableLoop {
        Objects.requireNonNull(wakeups, "wakeups");
        Objects.requireNonNull(listening, "listening");
        if (pollInterval.isNegative() || pollInterval.isZero() || idlePollInterval.compareTo(pollInterval) < 0) {
            throw new IllegalArgumentException("poll intervals must be positive, the idle one no shorter: "
                    + pollInterval + ", " + idlePollInterval);
        }
    }

    /** A loop without wake-ups: one run at start and one every {@code interval}; a failed run is retried at the next. */
    public static WakeableLoop periodic(Duration interval, Scheduler scheduler) {
        return new WakeableLoop(Flux.never(), () -> false, interval, interval, Duration.ZERO, Duration.ZERO, scheduler);
    }

    /**
     * Starts the loop, with one run at once; dispose the answer to stop it.
     *
     * @param task    one run; emits whether to run again at once
     * @param onError told of a failed run (the loop goes on)
     */
    public Disposable start(Supplier<Mono<Boolean>> task, Consumer<Throwable> onError) {
        AtomicLong lastStart = new AtomicLong(now());
        long idleNanos = idlePollInterval.toNanos();
        // one timer at a time, set for the next poll that could be due: every poll interval while
        // wake-ups do not arrive, else when the idle interval since the last run ends (an idle loop
        // wakes its thread once an idle interval, not ten times a second to find nothing due)
        Flux<Object> polls = Mono.defer(() -> Mono.delay(untilNextPoll(lastStart.get(), idleNanos), scheduler))
                .repeat()
                .filter(tick -> !listening.getAsBoolean() || idleOver(lastStart.get(), idleNanos))
                .cast(Object.class);
        Mono<Boolean> run = Mono.defer(() -> {
            lastStart.set(now());
            return task.get().defaultIfEmpty(false);
        }).onErrorResume(e -> {
            onError.accept(e);
            return Mono.delay(failureBackoff, scheduler).thenReturn(false);
        });
        Mono<Void> drain = run.expand(more -> more ? run : Mono.empty()).then();
        Mono<Void> round = minGap.isZero() ? drain : drain.then(Mono.delay(minGap, scheduler)).then();
        return Flux.merge(Flux.just((Object) "start"), polls, wakeups.cast(Object.class))
                .onBackpressureLatest()
                .concatMap(signal -> round, 0)
                .subscribe(done -> { }, onError);
    }

    /**
     * The scheduler's clock (a test's virtual one), in nanoseconds. A scheduler's clock is the wall
     * clock, which may be set back: {@link #idleOver} and {@link #untilNextPoll} bound what that does.
     */
    private long now() {
        return scheduler.now(TimeUnit.NANOSECONDS);
    }

    /** Whether the idle interval since the last run is over (or the clock was set back since). */
    private boolean idleOver(long lastStart, long idleNanos) {
        long since = now() - lastStart;
        return since >= idleNanos || since < 0;
    }

    /** From now until the next poll that may be due: the poll interval, or what is left of the idle one while listening. */
    private Duration untilNextPoll(long lastStart, long idleNanos) {
        if (!listening.getAsBoolean()) {
            return pollInterval;
        }
        long left = Math.min(idleNanos, idleNanos - (now() - lastStart));
        return Duration.ofNanos(Math.max(pollInterval.toNanos(), left));
    }
}
