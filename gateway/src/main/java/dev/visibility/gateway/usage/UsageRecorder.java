package dev.visibility.gateway.usage;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import dev.visibility.gateway.auth.EdgePrincipal;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.events.UsageRecorded;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;

/**
 * Counts API-key requests in memory and publishes the counts to {@code usage.requests} every few
 * seconds (auth-service sums them into project usage, spec 5.7). Counting never slows a request.
 *
 * <p>A key's counter stays in the map once created and is read with {@link LongAdder#sumThenReset()}: a
 * request counted while a flush runs lands in this flush or the next. (Taking the counter out of the map
 * before reading it lost a request that had looked the counter up just before and counted just after.)
 * The map holds one counter for each API key that called through this gateway since it started.
 *
 * <p>A record the broker did not take (an outage longer than the producer's delivery time-out) is sent again,
 * the same record with the same {@code eventId}, at each later flush until it is taken; auth-service applies an
 * eventId once, so a record that did arrive although its send reported a failure is not counted twice. At most
 * {@value #MAX_UNSENT} records wait; beyond that the oldest is given up, with an error naming its project and
 * count.
 */
@Component
public class UsageRecorder implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(UsageRecorder.class);

    /** Records waiting to be sent again (about 20 MB at most): one a key and flush, so 100 keys for over an hour at 5 s. */
    static final int MAX_UNSENT = 100_000;

    private final KafkaTemplate<String, Object> kafka;
    private final Duration interval;
    private final Map<Counter, LongAdder> counts = new ConcurrentHashMap<>();
    private final Queue<UsageRecorded> unsent = new ConcurrentLinkedQueue<>();
    private final AtomicInteger unsentCount = new AtomicInteger();
    private volatile Instant intervalStart = Instant.now();
    private volatile Disposable flusher;

    public UsageRecorder(KafkaTemplate<String, Object> kafka, @Value("${suite.usage.flush-interval:5s}") Duration interval) {
        this.kafka = kafka;
        this.interval = interval;
    }

    public void record(EdgePrincipal principal) {
        if (principal.kind() == EdgePrincipal.Kind.API_KEY) {
            counts.computeIfAbsent(new Counter(principal.projectId(), principal.id()), c -> new LongAdder()).increment();
        }
    }

    /** The requests counted since the last drain, by project and key; counters without any are left out. */
    Map<Counter, Long> drain() {
        Map<Counter, Long> drained = new HashMap<>();
        counts.forEach((counter, adder) -> {
            long requests = adder.sumThenReset();
            if (requests > 0) {
                drained.put(counter, requests);
            }
        });
        return drained;
    }

    void flush() {
        Instant start = intervalStart;
        intervalStart = Instant.now();
        List<UsageRecorded> records = new ArrayList<>();
        for (UsageRecorded earlier = takeUnsent(); earlier != null; earlier = takeUnsent()) {
            records.add(earlier);
        }
        drain().forEach((counter, requests) ->
                records.add(new UsageRecorded(UUID.randomUUID(), counter.projectId(), counter.keyId(), start, requests)));
        records.forEach(this::publish);
    }

    private void publish(UsageRecorded record) {
        ProducerRecord<String, Object> message = new ProducerRecord<>(Topics.USAGE_REQUESTS, record.projectId(), record);
        message.headers().add(Topics.EVENT_ID_HEADER, record.eventId().toString().getBytes(StandardCharsets.UTF_8));
        try {
            kafka.send(message).whenComplete((result, error) -> {
                if (error != null) {
                    notSent(record, error);
                }
            });
        } catch (RuntimeException e) {
            notSent(record, e);
        }
    }

    private void notSent(UsageRecorded record, Throwable error) {
        log.warn("Could not publish usage of project {} ({} requests), sending it again at the next flush: {}",
                record.projectId(), record.requests(), error.toString());
        keepUnsent(record);
    }

    private void keepUnsent(UsageRecorded record) {
        unsent.add(record);
        if (unsentCount.incrementAndGet() > MAX_UNSENT) {
            UsageRecorded oldest = takeUnsent();
            if (oldest != null) {
                log.error("Gave up the usage of project {} ({} requests since {}): more than {} records wait to be sent",
                        oldest.projectId(), oldest.requests(), oldest.intervalStart(), MAX_UNSENT);
            }
        }
    }

    /** The records waiting to be sent again, oldest first. */
    List<UsageRecorded> unsent() {
        return List.copyOf(unsent);
    }

    private UsageRecorded takeUnsent() {
        UsageRecorded record = unsent.poll();
        if (record != null) {
            unsentCount.decrementAndGet();
        }
        return record;
    }

    @Override
    public void start() {
        flusher = Flux.interval(interval, interval, Schedulers.boundedElastic())
                .subscribe(tick -> {
                    try {
                        flush();
                    } catch (RuntimeException e) {
                        log.warn("Usage flush failed: {}", e.toString());
                    }
                });
    }

    @Override
    public void stop() {
        Disposable current = flusher;
        if (current != null) {
            current.dispose();
        }
        flush();
    }

    @Override
    public boolean isRunning() {
        return flusher != null && !flusher.isDisposed();
    }

    record Counter(String projectId, String keyId) {
    }
}
