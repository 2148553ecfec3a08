package dev.visibility.webhook.delivery;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import dev.visibility.platform.tracing.TraceContexts;
import dev.visibility.webhook.config.WebhookProperties;
import dev.visibility.webhook.delivery.DeliveryHttpClient.Outcome;
import dev.visibility.webhook.delivery.DeliveryStore.AttemptRow;
import dev.visibility.webhook.delivery.DeliveryStore.DeliveryToAttempt;
import dev.visibility.webhook.secrets.SigningKeys;
import io.micrometer.observation.Observation;
import io.r2dbc.spi.R2dbcException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;
import reactor.core.Exceptions;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Attempts of deliveries, on Kafka listener threads (which may wait; event loops never do).
 * An attempt reads the delivery, its webhook's URL and current secret and the stored body,
 * signs those exact bytes, POSTs, and stores the attempt with the delivery's new state; only
 * then does the listener return and the record's offset get committed.
 *
 * <p>First attempts come in batches ({@link #attemptFirst}): one query reads them all, the POSTs
 * run concurrently (at most {@code parallelism}), and each attempt is stored as it completes
 * (those completing within 20 ms of each other with one statement). Retries come one
 * record at a time ({@link #attemptAgain}) and a failure is thrown, after it was stored, for the
 * retry topics to take the record on.
 *
 * <p>The attempt number comes from the database, not from Kafka: a record seen again after a
 * crash sends the same delivery again (same {@code X-Service-Delivery}) and never makes more than
 * {@link RetrySchedule#MAX_ATTEMPTS} stored attempts.
 */
@Component
public class DeliveryAttempts {

    private static final Logger log = LoggerFactory.getLogger(DeliveryAttempts.class);
    /** Attempts completing within this time of each other are stored with one statement. */
    private static final Duration RECORD_WITHIN = Duration.ofMillis(20);
    /** Retries of storing attempts that were made (about 20 s with the back-off) before the batch fails. */
    private static final int RECORD_RETRIES = 6;

    /** A failed delivery to put on the first retry topic, due at {@code notBefore}. */
    public record Retry(UUID deliveryId, UUID webhookId, Instant notBefore) {
    }

    /** What to do with a delivery whose record came in. */
    private enum Plan { SKIP, CANCEL, FAIL, RESCHEDULE, ATTEMPT }

    /** An attempt made; {@code outcome} is null when it could not be made (a secret that does not decrypt). */
    private record Attempted(DeliveryToAttempt delivery, int attempt, Outcome outcome) {
    }

    private final DeliveryStore store;
    private final DeliveryHttpClient client;
    private final SigningKeys signing;
    private final RetrySchedule schedule;
    private final DeliveryHooks hooks;
    private final int parallelism;
    private final Duration blockLimit;
    private final TraceContexts traces;

    public DeliveryAttempts(DeliveryStore store, DeliveryHttpClient client, SigningKeys signing, RetrySchedule schedule,
            DeliveryHooks hooks, WebhookProperties properties, TraceContexts traces) {
        this.traces = traces;
        this.store = store;
        this.client = client;
        this.signing = signing;
        this.schedule = schedule;
        this.hooks = hooks;
        this.parallelism = properties.delivery().parallelism();
        // the client bounds each POST by the time-out (a batch makes batchSize of them, parallelism
        // at a time), the pool and statement time-outs bound the queries; this is only the last line
        this.blockLimit = properties.delivery().timeout().multipliedBy(1 + properties.delivery().batchSize()
                / Math.max(1, parallelism)).plusSeconds(30);
    }

    /**
     * First attempts of a batch of records. Answers the deliveries to put on the first retry
     * topic: those that failed now, and those a crash left between their first attempt and that
     * topic (attempted once already, so not sent again here).
     */
    public List<Retry> attemptFirst(List<UUID> deliveryIds) {
        List<Retry> retries = wait(store.load(deliveryIds.toArray(UUID[]::new)).collectList()
                .flatMap(loaded -> firstAttempts(deliveryIds, loaded)));
        return retries == null ? List.of() : retries;
    }

    private Mono<List<Retry>> firstAttempts(List<UUID> requested, List<DeliveryToAttempt> loaded) {
        if (loaded.size() < requested.size()) {
            log.warn("{} delivery records name no delivery; they are skipped", requested.size() - loaded.size());
        }
        Map<Plan, List<DeliveryToAttempt>> plans = loaded.stream()
                .collect(Collectors.groupingBy(delivery -> plan(delivery, true)));
        List<Retry> retries = new ArrayList<>();
        for (DeliveryToAttempt delivery : plans.getOrDefault(Plan.RESCHEDULE, List.of())) {
            retries.add(new Retry(delivery.id(), delivery.webhookId(),
                    Instant.now().plus(schedule.delayAfter(delivery.attemptCount(), null))));
        }
        return Flux.fromIterable(plans.getOrDefault(Plan.ATTEMPT, List.of()))
                .flatMap(delivery -> send(delivery, delivery.attemptCount() + 1), parallelism)
                // each attempt is stored as it completes (those that complete within RECORD_WITHIN
                // together), not once the whole batch is done: a crash or a database failure later in
                // the batch repeats only the POSTs whose outcome was not stored yet (issue 22)
                .bufferTimeout(parallelism, RECORD_WITHIN, true)
                .concatMap(done -> record(done).thenReturn(done))
                .flatMapIterable(done -> done)
                .collectList()
                .flatMap(attempted -> {
                    for (Attempted one : attempted) {
                        if (one.outcome() != null && !one.outcome().succeeded() && one.attempt() < RetrySchedule.MAX_ATTEMPTS) {
                            retries.add(new Retry(one.delivery().id(), one.delivery().webhookId(), notBefore(one)));
                        }
                    }
                    return store.finish(ids(plans.getOrDefault(Plan.CANCEL, List.of())).toArray(UUID[]::new),
                                    DeliveryState.CANCELLED)
                            .then(store.finish(ids(plans.getOrDefault(Plan.FAIL, List.of())).toArray(UUID[]::new),
                                    DeliveryState.FAILED))
                            .thenReturn(retries);
                });
    }

    /**
     * Stores attempts just made; one that could not be made (no signature) fails its delivery. A
     * database failure here is retried for a while before it fails the batch (whose POSTs would then
     * be made again), since the receivers already have these.
     */
    private Mono<Void> record(List<Attempted> done) {
        List<AttemptRow> rows = new ArrayList<>();
        List<UUID> unsendable = new ArrayList<>();
        for (Attempted one : done) {
            if (one.outcome() == null) {
                unsendable.add(one.delivery().id());
            } else {
                rows.add(row(one));
            }
        }
        return store.recordAttempts(rows)
                .then(store.finish(unsendable.toArray(UUID[]::new), DeliveryState.FAILED))
                .retryWhen(reactor.util.retry.Retry.backoff(RECORD_RETRIES, Duration.ofMillis(250))
                        .maxBackoff(Duration.ofSeconds(5))
                        .filter(DeliveryAttempts::isStorage)
                        .onRetryExhaustedThrow((spec, signal) -> signal.failure()))
                .then();
    }

    /** A retry of one delivery; a failed attempt is thrown, after it was stored, as {@link DeliveryAttemptFailed}. */
    public void attemptAgain(UUID deliveryId) {
        Attempted attempted = wait(store.load(new UUID[] {deliveryId}).next()
                .flatMap(delivery -> switch (plan(delivery, false)) {
                    case SKIP -> Mono.<Attempted>empty();
                    case CANCEL -> store.finish(new UUID[] {deliveryId}, DeliveryState.CANCELLED).then(Mono.<Attempted>empty());
                    case FAIL -> store.finish(new UUID[] {deliveryId}, DeliveryState.FAILED).then(Mono.<Attempted>empty());
                    case RESCHEDULE, ATTEMPT -> send(delivery, delivery.attemptCount() + 1)
                            .flatMap(one -> one.outcome() == null
                                    ? store.finish(new UUID[] {deliveryId}, DeliveryState.FAILED).thenReturn(one)
                                    : store.recordAttempts(List.of(row(one))).thenReturn(one));
                }));
        if (attempted == null || attempted.outcome() == null || attempted.outcome().succeeded()) {
            return;
        }
        throw new DeliveryAttemptFailed(deliveryId, attempted.attempt(), notBefore(attempted));
    }

    private Plan plan(DeliveryToAttempt delivery, boolean firstAttempts) {
        if (!DeliveryState.PENDING.wireName().equals(delivery.state())) {
            return Plan.SKIP;
        }
        if (!delivery.webhookActive()) {
            log.info("Delivery {} is cancelled: its webhook was deleted", delivery.id());
            return Plan.CANCEL;
        }
        if (delivery.attemptCount() >= RetrySchedule.MAX_ATTEMPTS) {
            return Plan.FAIL;
        }
        return firstAttempts && delivery.attemptCount() > 0 ? Plan.RESCHEDULE : Plan.ATTEMPT;
    }

    /**
     * One attempt, in a {@code webhook.delivery.attempt} span continuing the trace the delivery was
     * stored with (its event's, or its redeliver request's: issue 23), whose trace and span ids the
     * attempt's log line carries. The POST itself carries no trace header: receivers get the headers
     * of spec 6.3 and {@code X-Service-Delivery} only (DESIGN.md, Webhook delivery).
     */
    private Mono<Attempted> send(DeliveryToAttempt delivery, int attempt) {
        Observation span = traces.continuing("webhook.delivery.attempt", delivery.traceparent())
                .lowCardinalityKeyValue("event", delivery.event())
                .start();
        byte[] body = delivery.body().getBytes(StandardCharsets.UTF_8);
        String signature;
        try {
            // the secret current at the time of this attempt (spec 6.4.2: a replaced secret no longer verifies)
            signature = signing.sign(delivery.webhookId(), delivery.secretCiphertext(), body);
        } catch (IllegalStateException e) {
            try (Observation.Scope scope = span.openScope()) {
                log.error("Delivery {} cannot be signed: {}; it is failed", delivery.id(), e.getMessage());
            }
            span.error(e);
            span.stop();
            return Mono.just(new Attempted(delivery, attempt, null));
        }
        return client.post(new DeliveryHttpClient.Request(delivery.url(), body, delivery.event(),
                        signature, delivery.id(), delivery.redeliveryOf()))
                .map(outcome -> {
                    try (Observation.Scope scope = span.openScope()) {
                        hooks.runAfterAnswer(delivery.id(), delivery.webhookId(), outcome);
                        logAttempt(delivery, attempt, outcome);
                    } finally {
                        span.lowCardinalityKeyValue("outcome", outcome.succeeded()
                                ? DeliveryHttpClient.SUCCESS : outcome.errorClass());
                        span.stop();
                    }
                    return new Attempted(delivery, attempt, outcome);
                });
    }

    /** The attempt's log line (every attempt, as the delivery log stores it): never the URL, a secret or the body. */
    private static void logAttempt(DeliveryToAttempt delivery, int attempt, Outcome outcome) {
        if (outcome.succeeded()) {
            log.info("Delivery {} attempt {} of {} succeeded ({} {} in {} ms)", delivery.id(), attempt,
                    RetrySchedule.MAX_ATTEMPTS, delivery.event(), outcome.httpStatus(), outcome.durationMs());
        } else {
            log.info("Delivery {} attempt {} of {} failed ({}{}, {} in {} ms)", delivery.id(), attempt,
                    RetrySchedule.MAX_ATTEMPTS, outcome.errorClass(),
                    outcome.httpStatus() == null ? "" : " " + outcome.httpStatus(), delivery.event(),
                    outcome.durationMs());
        }
    }

    private static AttemptRow row(Attempted one) {
        DeliveryState state = one.outcome().succeeded() ? DeliveryState.SUCCEEDED
                : one.attempt() >= RetrySchedule.MAX_ATTEMPTS ? DeliveryState.FAILED : DeliveryState.PENDING;
        return new AttemptRow(one.delivery().id(), one.attempt(), one.outcome(), state);
    }

    private Instant notBefore(Attempted failed) {
        return failed.attempt() >= RetrySchedule.MAX_ATTEMPTS ? Instant.now()
                : Instant.now().plus(schedule.delayAfter(failed.attempt(), failed.outcome().retryAfter()));
    }

    private static List<UUID> ids(List<DeliveryToAttempt> deliveries) {
        return deliveries.stream().map(DeliveryToAttempt::id).collect(Collectors.toCollection(ArrayList::new));
    }

    /**
     * Waits for a chain on the listener thread. A database failure (or no answer from it in time)
     * becomes {@link DeliveryStoreUnavailable}, retried in place; an {@link Error} (the crash
     * test's) is rethrown as itself, so that it stops the consumer as a crash would.
     */
    private <T> T wait(Mono<T> operation) {
        try {
            return operation.block(blockLimit);
        } catch (RuntimeException e) {
            Throwable cause = Exceptions.unwrap(e);
            if (cause instanceof Error error) {
                throw error;
            }
            if (isStorage(e)) {
                throw new DeliveryStoreUnavailable(e);
            }
            throw e;
        }
    }

    private static boolean isStorage(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof DataAccessException || t instanceof R2dbcException || t instanceof TimeoutException) {
                return true;
            }
        }
        // block(...) that timed out
        return failure instanceof IllegalStateException && String.valueOf(failure.getMessage()).startsWith("Timeout on blocking read");
    }
}
