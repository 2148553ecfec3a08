package dev.visibility.platform.db;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.test.scheduler.VirtualTimeScheduler;

/**
 * The worker loop behind the outbox relay and the rank maintainer: wake-ups, folding, polling, failures.
 * Every timer of the loop runs on the scheduler it is given; here that is a virtual clock, and the
 * tasks and wake-ups are synchronous, so each assertion holds at the moment it is made: "no further
 * run" is checked after the clock is advanced past every timer that could cause one, without waiting.
 */
class WakeableLoopTest {

    private static final Duration LONG = Duration.ofHours(1);

    private final VirtualTimeScheduler clock = VirtualTimeScheduler.create();
    private final Sinks.Many<String> wakeups = Sinks.many().multicast().directBestEffort();
    private final AtomicBoolean listening = new AtomicBoolean(true);
    private Disposable loop;

    @AfterEach
    void stop() {
        if (loop != null) {
            loop.dispose();
        }
        clock.dispose();
    }

    private WakeableLoop loop(Duration poll, Duration idlePoll, Duration minGap) {
        return new WakeableLoop(wakeups.asFlux(), listening::get, poll, idlePoll, minGap, Duration.ofMillis(50), clock);
    }

    @Test
    void runsOnceAtStartAndOnEachWakeUp() {
        AtomicInteger runs = new AtomicInteger();
        loop = loop(LONG, LONG, Duration.ZERO).start(counting(runs), e -> { });
        assertThat(runs).hasValue(1);
        wakeups.tryEmitNext("outbox");
        assertThat(runs).hasValue(2);
        wakeups.tryEmitNext("outbox");
        assertThat(runs).hasValue(3);
        clock.advanceTimeBy(Duration.ofMinutes(59));
        assertThat(runs).hasValue(3);
    }

    @Test
    void wakeUpsDuringARunAreFoldedIntoOneMoreRun() {
        AtomicInteger runs = new AtomicInteger();
        Sinks.One<Boolean> firstRun = Sinks.one();
        loop = loop(LONG, LONG, Duration.ZERO).start(() -> runs.incrementAndGet() == 1
                ? firstRun.asMono() : Mono.just(false), e -> { });
        assertThat(runs).hasValue(1);
        for (int i = 0; i < 50; i++) {
            wakeups.tryEmitNext("outbox");
        }
        assertThat(runs).hasValue(1);
        firstRun.tryEmitValue(false);
        clock.advanceTimeBy(Duration.ofMinutes(59));
        // none lost (the second run sees what the wake-ups announced), none repeated fifty times
        assertThat(runs).hasValue(2);
    }

    @Test
    void aFullBatchRunsAgainAtOnce() {
        AtomicInteger runs = new AtomicInteger();
        loop = loop(LONG, LONG, Duration.ZERO).start(() -> Mono.fromSupplier(() -> runs.incrementAndGet() < 5),
                e -> { });
        assertThat(runs).hasValue(5);
        clock.advanceTimeBy(Duration.ofMinutes(59));
        assertThat(runs).hasValue(5);
    }

    @Test
    void aFailedRunIsReportedAndTheLoopGoesOnAfterTheBackOff() {
        AtomicInteger runs = new AtomicInteger();
        AtomicInteger failures = new AtomicInteger();
        loop = loop(LONG, LONG, Duration.ZERO).start(() -> runs.incrementAndGet() == 1
                ? Mono.error(new IllegalStateException("broker down")) : Mono.just(false),
                e -> failures.incrementAndGet());
        assertThat(failures).hasValue(1);
        wakeups.tryEmitNext("outbox");
        clock.advanceTimeBy(Duration.ofMillis(49));
        assertThat(runs).hasValue(1);
        clock.advanceTimeBy(Duration.ofMillis(1));
        assertThat(runs).hasValue(2);
        assertThat(failures).hasValue(1);
    }

    @Test
    void pollsOftenWithoutWakeUpsAndRarelyWithThem() {
        AtomicInteger runs = new AtomicInteger();
        listening.set(false);
        loop = loop(Duration.ofMillis(20), LONG, Duration.ZERO).start(counting(runs), e -> { });
        clock.advanceTimeBy(Duration.ofMillis(80));
        assertThat(runs).hasValue(5);
        listening.set(true);
        clock.advanceTimeBy(Duration.ofMinutes(10));
        assertThat(runs).hasValue(5);
        clock.advanceTimeBy(Duration.ofMinutes(50));
        assertThat(runs).hasValue(6);
    }

    @Test
    void whileListeningItPollsOnceAnIdleIntervalAfterTheLastRunAndSetsNoTimerInBetween() {
        AtomicInteger runs = new AtomicInteger();
        AtomicInteger timers = new AtomicInteger();
        Scheduler counted = new CountingTimers(clock, timers);
        loop = new WakeableLoop(wakeups.asFlux(), listening::get, Duration.ofMillis(100), Duration.ofSeconds(10),
                Duration.ZERO, Duration.ofMillis(50), counted).start(counting(runs), e -> { });
        assertThat(runs).hasValue(1);
        clock.advanceTimeBy(Duration.ofMillis(9_999));
        assertThat(runs).hasValue(1);
        clock.advanceTimeBy(Duration.ofMillis(1));
        assertThat(runs).hasValue(2);
        // a wake-up's run moves the next poll to an idle interval after it
        clock.advanceTimeBy(Duration.ofSeconds(4));
        wakeups.tryEmitNext("outbox");
        assertThat(runs).hasValue(3);
        clock.advanceTimeBy(Duration.ofMillis(9_999));
        assertThat(runs).hasValue(3);
        clock.advanceTimeBy(Duration.ofMillis(1));
        assertThat(runs).hasValue(4);
        // 34 s in all: a timer per poll and one after each run a wake-up moved, not one every 100 ms (340)
        assertThat(timers.get()).isLessThanOrEqualTo(6);
        // the connection lost: polls every 100 ms again, from the next timer on
        listening.set(false);
        clock.advanceTimeBy(Duration.ofSeconds(10));
        int before = runs.get();
        clock.advanceTimeBy(Duration.ofMillis(500));
        assertThat(runs.get() - before).isEqualTo(5);
    }

    @Test
    void wakeUpsWithinTheMinimumGapShareOneRun() {
        AtomicInteger runs = new AtomicInteger();
        loop = loop(LONG, LONG, Duration.ofSeconds(1)).start(counting(runs), e -> { });
        assertThat(runs).hasValue(1);
        for (int i = 0; i < 10; i++) {
            wakeups.tryEmitNext("rank_pending");
            clock.advanceTimeBy(Duration.ofMillis(10));
        }
        assertThat(runs).hasValue(1);
        clock.advanceTimeBy(Duration.ofMillis(900));
        assertThat(runs).hasValue(2);
        clock.advanceTimeBy(Duration.ofMinutes(59));
        assertThat(runs).hasValue(2);
    }

    @Test
    void aPeriodicLoopRunsAtStartAndEveryIntervalWithoutWakeUps() {
        AtomicInteger runs = new AtomicInteger();
        loop = WakeableLoop.periodic(Duration.ofMillis(50), clock).start(counting(runs), e -> { });
        assertThat(runs).hasValue(1);
        clock.advanceTimeBy(Duration.ofMillis(49));
        assertThat(runs).hasValue(1);
        clock.advanceTimeBy(Duration.ofMillis(101));
        assertThat(runs).hasValue(4);
    }

    /** The virtual clock, counting the delayed tasks (timers) set on it and the ticks of periodic ones. */
    private record CountingTimers(VirtualTimeScheduler clock, AtomicInteger timers) implements Scheduler {

        @Override
        public Disposable schedule(Runnable task) {
            return clock.schedule(task);
        }

        @Override
        public Disposable schedule(Runnable task, long delay, TimeUnit unit) {
            timers.incrementAndGet();
            return clock.schedule(task, delay, unit);
        }

        @Override
        public Disposable schedulePeriodically(Runnable task, long initialDelay, long period, TimeUnit unit) {
            // each tick of a periodic timer counts as one
            return clock.schedulePeriodically(() -> {
                timers.incrementAndGet();
                task.run();
            }, initialDelay, period, unit);
        }

        @Override
        public long now(TimeUnit unit) {
            return clock.now(unit);
        }

        @Override
        public Worker createWorker() {
            return clock.createWorker();
        }
    }

    /** A task that counts its runs and leaves no work behind. */
    private static Supplier<Mono<Boolean>> counting(AtomicInteger runs) {
        return () -> Mono.fromSupplier(() -> {
            runs.incrementAndGet();
            return false;
        });
    }
}
