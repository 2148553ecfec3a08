package dev.visibility.gateway.ratelimit;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * The shared store (Redis) while it answers, this replica's own counters while it does not
 * (issue 22): an optional dependency must not take the API down. When a call to the store fails
 * or times out, the limiter switches to per-replica windows with the limit divided by the
 * configured replica count ({@code suite.rate-limit.replicas}), so that the replicas together
 * still admit about the limit; it logs the switch once, reports itself degraded (readiness stays
 * 200) and asks the store again at most every {@code probeInterval} (on a request or a health
 * check). When the store answers, it logs that once and counts in the store again: the shared,
 * exact limit applies from then on (requests admitted locally meanwhile are not in the store's
 * window, so that window may admit up to the limit again).
 */
public class FallbackRateLimiter implements RateLimiter {

    private static final Logger log = LoggerFactory.getLogger(FallbackRateLimiter.class);

    private final RateLimiter shared;
    private final Supplier<Mono<?>> probe;
    private final RateLimiter local;
    private final int replicas;
    private final long probeIntervalMillis;
    private final Duration probeTimeout;
    private final Clock clock;
    private final AtomicBoolean degraded = new AtomicBoolean();
    private final AtomicBoolean probing = new AtomicBoolean();
    private volatile long nextProbeAt;

    /**
     * @param shared        the shared store's limiter (its calls have their own time-out)
     * @param probe         a cheap call to the store that completes when it answers
     * @param local         this replica's limiter, used while the store is down
     * @param replicas      how many gateway replicas share the limit (configuration)
     * @param probeInterval how often the store is asked again while it is down
     */
    public FallbackRateLimiter(RateLimiter shared, Supplier<Mono<?>> probe, RateLimiter local, int replicas,
            Duration probeInterval, Duration probeTimeout, Clock clock) {
        this.shared = shared;
        this.probe = probe;
        this.local = local;
        this.replicas = Math.max(1, replicas);
        this.probeIntervalMillis = probeInterval.toMillis();
        this.probeTimeout = probeTimeout;
        this.clock = clock;
    }

    @Override
    public Mono<Decision> consume(String key, int limit) {
        if (degraded.get()) {
            probeIfDue();
            return local.consume(key, localLimit(limit)).map(Decision::asFallback);
        }
        return shared.consume(key, limit)
                .onErrorResume(e -> {
                    degrade(e);
                    return local.consume(key, localLimit(limit)).map(Decision::asFallback);
                });
    }

    /**
     * Warms the shared store up; if it does not answer within {@code timeout} the replica starts
     * degraded (logged once, asked again every probe interval) instead of letting the first
     * requests each wait for it.
     */
    @Override
    public Mono<Void> warmUp(Duration timeout) {
        return shared.warmUp(timeout)
                .doOnError(this::degrade)
                .onErrorComplete();
    }

    /** Whether the limiter counts in this replica because the shared store does not answer. */
    public boolean degraded() {
        return degraded.get();
    }

    /** Asks the store again if it is down and the last attempt is older than the probe interval. */
    public void probeIfDue() {
        long now = clock.millis();
        if (!degraded.get() || now < nextProbeAt || !probing.compareAndSet(false, true)) {
            return;
        }
        nextProbeAt = now + probeIntervalMillis;
        Mono.defer(probe)
                .timeout(probeTimeout)
                .doFinally(signal -> probing.set(false))
                .subscribe(answer -> recover(), failure -> { }, () -> recover());
    }

    int localLimit(int limit) {
        return Math.max(1, limit / replicas);
    }

    private void degrade(Throwable cause) {
        if (degraded.compareAndSet(false, true)) {
            nextProbeAt = clock.millis() + probeIntervalMillis;
            log.warn("Rate-limit store unreachable ({}): counting per replica with the limit divided by {} replicas "
                    + "until it answers again", cause.toString(), replicas);
        }
    }

    private void recover() {
        if (degraded.compareAndSet(true, false)) {
            log.info("Rate-limit store answers again: shared limits resume");
        }
    }
}
