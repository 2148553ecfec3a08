package dev.visibility.platform.consumer;

import java.util.List;

import reactor.core.publisher.Mono;

/**
 * What a service does with the valid records of one poll, for high-volume topics
 * ({@link TopicConsumer#batch}). The list keeps the topic's order per partition and holds no record
 * whose eventId an idempotent consumer already applied; it is never empty. The platform waits for
 * the answer (with the consumer's time-out) before it commits the poll's offsets. A
 * {@link PoisonRecord} naming one of the records ({@link PoisonRecord#PoisonRecord(String, Object)})
 * dead-letters that record and hands the rest to the handler again; any other error is classified
 * by {@link Failures} and the whole batch is tried again.
 */
@FunctionalInterface
public interface BatchHandler<T> {

    Mono<?> handle(List<T> records);
}
