package dev.visibility.platform.consumer;

import reactor.core.publisher.Mono;

/**
 * What a service does with one valid record. The platform waits for the answer (with the
 * consumer's time-out) before it commits the record's offset; an error is classified by
 * {@link Failures}. A handler that throws {@link PoisonRecord} sends the record to the dead-letter topic.
 */
@FunctionalInterface
public interface RecordHandler<T> {

    Mono<?> handle(T record);
}
