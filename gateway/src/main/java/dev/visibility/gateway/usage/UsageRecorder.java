package dev.visibility.gateway.usage;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
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
 */
@Component
public class UsageRecorder implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(UsageRecorder.class);

    private final KafkaTemplate<String, Object> kafka;
    private final Duration interval;
    private final Map<Counter, LongAdder> counts = new ConcurrentHashMap<>();
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

    void flush() {
        Instant start = intervalStart;
        intervalStart = Instant.now();
        for (Counter counter : counts.keySet()) {
            LongAdder adder = counts.remove(counter);
            long requests = adder == null ? 0 : adder.sumThenReset();
            if (requests > 0) {
                UsageRecorded record = new UsageRecorded(UUID.randomUUID(), counter.projectId(), counter.keyId(), start, requests);
                ProducerRecord<String, Object> message = new ProducerRecord<>(Topics.USAGE_REQUESTS, counter.projectId(), record);
                message.headers().add(Topics.EVENT_ID_HEADER, record.eventId().toString().getBytes());
                kafka.send(message).whenComplete((result, error) -> {
                    if (error != null) {
                        log.warn("Could not publish usage of project {}: {}", counter.projectId(), error.toString());
                    }
                });
            }
        }
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

    private record Counter(String projectId, String keyId) {
    }
}
