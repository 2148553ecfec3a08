package dev.visibility.platform.tracing;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.ReceiverContext;
import io.micrometer.observation.transport.SenderContext;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

/**
 * Carries a trace across a hop that no instrumentation sees: a row written now and read later by
 * another thread or process (the outbox, a stored delivery). The writer keeps the W3C
 * {@code traceparent} of a child span of the current one ({@link #capture}); the reader runs its
 * work inside an observation whose parent is that stored context ({@link #continuing}), so that
 * its spans, the Kafka records it sends and its log lines carry the same trace id.
 *
 * <p>Everything goes through the {@link ObservationRegistry}: with Micrometer Tracing on (every
 * service) its tracing handlers make the spans and fill the MDC; with no tracing (a registry
 * without handlers, {@link ObservationRegistry#NOOP}) nothing is captured and nothing changes.
 */
public final class TraceContexts {

    /** The W3C Trace Context header, as Kafka record header and as stored column. */
    public static final String TRACEPARENT = "traceparent";

    /** The length of a version-00 {@code traceparent}: {@code 00-<32 hex>-<16 hex>-<2 hex>}. */
    private static final int W3C_LENGTH = 55;

    private final ObservationRegistry registry;

    public TraceContexts(ObservationRegistry registry) {
        this.registry = registry;
    }

    public ObservationRegistry registry() {
        return registry;
    }

    /**
     * The {@code traceparent} of a new producer span ({@code name}) under the observation current
     * where the answer is subscribed: the Reactor context's (a WebFlux request), else the one
     * current on this thread when this method is called (a Kafka listener, a servlet request); a
     * new trace when there is none. Empty when tracing is off.
     */
    public Mono<String> capture(String name) {
        Observation assembledOn = registry.getCurrentObservation();
        return Mono.deferContextual(context -> Mono.justOrEmpty(capture(name, current(context, assembledOn))));
    }

    /** The same, synchronously, under {@code parent} (null: a new trace); null when tracing is off. */
    public @Nullable String capture(String name, @Nullable Observation parent) {
        if (registry.isNoop()) {
            return null;
        }
        SenderContext<Map<String, String>> sender = new SenderContext<>((carrier, key, value) -> {
            if (carrier != null) {
                carrier.put(key, value);
            }
        }, Kind.PRODUCER);
        sender.setCarrier(new HashMap<>(4));
        Observation.createNotStarted(name, () -> sender, registry).parentObservation(parent).start().stop();
        return valid(sender.getCarrier().get(TRACEPARENT));
    }

    /**
     * A (not started) consumer observation {@code name} whose parent is the stored
     * {@code traceparent}; a new trace when it is null or not a W3C value. Start it, run the work in
     * its scope ({@link Observation#observe}, {@link Observation#openScope}: spans made there and
     * Kafka records sent there join the trace, log lines carry its ids) and stop it.
     */
    public Observation continuing(String name, @Nullable String traceparent) {
        ReceiverContext<String> receiver = new ReceiverContext<>(
                (carrier, key) -> TRACEPARENT.equals(key) ? carrier : null, Kind.CONSUMER);
        receiver.setCarrier(valid(traceparent));
        return Observation.createNotStarted(name, () -> receiver, registry);
    }

    /**
     * The {@code traceparent} of a new producer span ({@code name}) in the trace of a consumed
     * record: under a consumer span whose parent is the record's {@code traceparent} (null or not a
     * W3C value: a new trace); null when tracing is off. For work a batch consumer does for each of
     * its records, where no record's observation is current.
     */
    public @Nullable String captureUnder(String name, @Nullable String traceparent) {
        if (registry.isNoop()) {
            return null;
        }
        Observation consumed = continuing(name + ".record", traceparent).start();
        try {
            return capture(name, consumed);
        } finally {
            consumed.stop();
        }
    }

    /** The observation of a Reactor context, else {@code fallback}. */
    public static @Nullable Observation current(ContextView context, @Nullable Observation fallback) {
        Object inContext = context.getOrDefault(ObservationThreadLocalAccessor.KEY, null);
        return inContext instanceof Observation observation ? observation : fallback;
    }

    /** The record's {@code traceparent} header, if it holds a W3C value. */
    public static @Nullable String traceparent(@Nullable Headers headers) {
        Header header = headers == null ? null : headers.lastHeader(TRACEPARENT);
        return header == null || header.value() == null ? null
                : valid(new String(header.value(), StandardCharsets.ISO_8859_1));
    }

    /** The trace id (32 hex digits) of a {@code traceparent}, or null. */
    public static @Nullable String traceId(@Nullable String traceparent) {
        String checked = valid(traceparent);
        return checked == null ? null : checked.substring(3, 35);
    }

    /**
     * The value when it is version 00 with a 32-hex trace id, a 16-hex parent id and 2-hex flags, all
     * lowercase (W3C Trace Context 3.2), else null. Checked character by character: it runs for every
     * record consumed and every webhook attempt, where a regular expression's matcher was 1.5 % of the
     * JVM's CPU (bench/WebhookDeliveryBench.md).
     */
    static @Nullable String valid(@Nullable String traceparent) {
        if (traceparent == null || traceparent.length() != W3C_LENGTH
                || traceparent.charAt(0) != '0' || traceparent.charAt(1) != '0') {
            return null;
        }
        for (int i = 2; i < W3C_LENGTH; i++) {
            char c = traceparent.charAt(i);
            boolean dash = i == 2 || i == 35 || i == 52;
            if (dash ? c != '-' : !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return null;
            }
        }
        return traceparent;
    }
}
