package dev.visibility.platform.db;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/** The worker loop behind the outbox relay and the rank maintainer: wake-ups, folding, polling, failures. */
class WakeableLoopTest {

    private static final Duration LONG = Duration.ofHours(1);

    private final Scheduler scheduler = Schedulers.newSingle("loop-test");
    private final Sinks.Many<String> wakeups = Sinks.many().multicast().directBestEffort();
    private final AtomicBoolean listening = new AtomicBoolean(true);
    private Disposable loop;

    @AfterEach
    void stop() {
        if (loop != null) {
            loop.dispose();
        }
        scheduler.dispose();
    }

    private WakeableLoop loop(Duration poll, Duration idlePoll, Duration minGap) {
        return new WakeableLoop(wakeups.asFlux(), listening::get, poll, idlePoll, minGap, Duration.ofMillis(50), scheduler);
    }

    @Test
    void runsOnceAtStartAndOnEachWakeUp() {
        AtomicInteger runs = new AtomicInteger();
        loop = loop(LONG, LONG, Duration.ZERO).start(counting(runs), e -> { });
        await(() -> runs.get() == 1);
        wakeups.tryEmitNext("outbox");
        await(() -> runs.get() == 2);
        wakeups.tryEmitNext("outbox");
        await(() -> runs.get() == 3);
        sleep(200);
        assertThat(runs).hasValue(3);
    }

    @Test
    void wakeUpsDuringARunAreFoldedIntoOneMoreRun() {
        AtomicInteger runs = new AtomicInteger();
        Sinks.One<Boolean> firstRun = Sinks.one();
        loop = loop(LONG, LONG, Duration.ZERO).start(() -> runs.incrementAndGet() == 1
                ? firstRun.asMono() : Mono.just(false), e -> { });
        await(() -> runs.get() == 1);
        for (int i = 0; i < 50; i++) {
            wakeups.tryEmitNext("outbox");
        }
        firstRun.tryEmitValue(false);
        await(() -> runs.get() == 2);
        sleep(200);
        // none lost (the second run sees what the wake-ups announced), none repeated fifty times
        assertThat(runs).hasValue(2);
    }

    @Test
    void aFullBatchRunsAgainAtOnce() {
        AtomicInteger runs = new AtomicInteger();
        loop = loop(LONG, LONG, Duration.ZERO).start(() -> Mono.fromSupplier(() -> runs.incrementAndGet() < 5),
                e -> { });
        await(() -> runs.get() == 5);
        sleep(200);
        assertThat(runs).hasValue(5);
    }

    @Test
    void aFailedRunIsReportedAndTheLoopGoesOn() {
        AtomicInteger runs = new AtomicInteger();
        AtomicInteger failures = new AtomicInteger();
        loop = loop(LONG, LONG, Duration.ZERO).start(() -> runs.incrementAndGet() == 1
                ? Mono.error(new IllegalStateException("broker down")) : Mono.just(false),
                e -> failures.incrementAndGet());
        await(() -> failures.get() == 1);
        wakeups.tryEmitNext("outbox");
        await(() -> runs.get() == 2);
        assertThat(failures).hasValue(1);
    }

    @Test
    void pollsOftenWithoutWakeUpsAndRarelyWithThem() {
        AtomicInteger runs = new AtomicInteger();
        listening.set(false);
        loop = loop(Duration.ofMillis(20), LONG, Duration.ZERO).start(counting(runs), e -> { });
        await(() -> runs.get() >= 5);
        listening.set(true);
        sleep(100);
        int settled = runs.get();
        sleep(300);
        assertThat(runs.get()).isEqualTo(settled);
    }

    @Test
    void wakeUpsWithinTheMinimumGapShareOneRun() {
        AtomicInteger runs = new AtomicInteger();
        // a gap far longer than the ten wake-ups take, so that a slow CI machine cannot split them
        loop = loop(LONG, LONG, Duration.ofSeconds(1)).start(counting(runs), e -> { });
        await(() -> runs.get() == 1);
        for (int i = 0; i < 10; i++) {
            wakeups.tryEmitNext("rank_pending");
            sleep(10);
        }
        assertThat(runs).hasValue(1);
        await(() -> runs.get() == 2);
        sleep(1_500);
        assertThat(runs).hasValue(2);
    }

    @Test
    void aPeriodicLoopRunsAtStartAndEveryIntervalWithoutWakeUps() {
        AtomicInteger runs = new AtomicInteger();
        loop = WakeableLoop.periodic(Duration.ofMillis(50), scheduler).start(counting(runs), e -> { });
        await(() -> runs.get() == 1);
        await(() -> runs.get() >= 4);
    }

    /** A task that counts its runs and leaves no work behind. */
    private static Supplier<Mono<Boolean>> counting(AtomicInteger runs) {
        return () -> Mono.fromSupplier(() -> {
            runs.incrementAndGet();
            return false;
        });
    }

    private static void await(java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 5 s");
            }
            sleep(5);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
