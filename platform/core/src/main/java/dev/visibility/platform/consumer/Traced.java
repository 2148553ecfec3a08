package dev.visibility.platform.consumer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import reactor.util.context.ContextView;

/**
 * A record of a batch with the trace it was sent in: the W3C {@code traceparent} of its Kafka
 * headers (null when it came without one). A batch handler that stores work done later for each
 * record (webhook deliveries) keeps it, so that the later work continues the record's trace
 * ({@link dev.visibility.platform.tracing.TraceContexts#continuing}); see
 * {@link TopicConsumer#tracedBatch}.
 */
public record Traced<T>(T record, @Nullable String traceparent) {

    /** The Reactor context key under which the batch listener passes each record's traceparent (by identity). */
    static final String CONTEXT_KEY = Traced.class.getName();

    static <T> List<Traced<T>> of(List<T> records, ContextView context) {
        Map<?, ?> traces = context.getOrDefault(CONTEXT_KEY, Map.of());
        List<Traced<T>> traced = new ArrayList<>(records.size());
        for (T record : records) {
            Object traceparent = traces.get(record);
            traced.add(new Traced<>(record, traceparent instanceof String text ? text : null));
        }
        return traced;
    }
}
