package dev.visibility.platform.consumer;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.listener.MessageListener;
import org.springframework.transaction.reactive.TransactionalOperator;
import dev.visibility.platform.outbox.ProcessedEvents;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import reactor.core.publisher.Mono;

/** The listener of one {@link TopicConsumer}: read, validate, claim if asked, handle, wait. */
final class TopicConsumerListener<T extends ConsumedRecord> implements MessageListener<String, String> {

    private static final Logger log = LoggerFactory.getLogger(TopicConsumerListener.class);

    private final TopicConsumer<T> consumer;
    private final RecordReader<T> reader;
    private final ProcessedEvents processed;
    private final TransactionalOperator tx;
    private final ObservationRegistry observations;

    TopicConsumerListener(TopicConsumer<T> consumer, RecordReader<T> reader, ProcessedEvents processed,
            TransactionalOperator tx) {
        this(consumer, reader, processed, tx, ObservationRegistry.NOOP);
    }

    TopicConsumerListener(TopicConsumer<T> consumer, RecordReader<T> reader, ProcessedEvents processed,
            TransactionalOperator tx, ObservationRegistry observations) {
        this.observations = observations;
        this.consumer = consumer;
        this.reader = reader;
        this.processed = processed;
        this.tx = tx;
    }

    @Override
    public void onMessage(ConsumerRecord<String, String> consumed) {
        T record;
        try {
            record = reader.read(consumed.value());
        } catch (PoisonRecord e) {
            log.warn("Record {}-{}@{} is unusable ({}); it goes to {}", consumed.topic(), consumed.partition(),
                    consumed.offset(), e.getMessage(), consumer.deadLetterTopic());
            throw e;
        }
        try {
            // the container's observation of this record is current on this thread; the handler's chain
            // may run on other threads: in its Reactor context, an outbox append made anywhere in it
            // keeps the record's trace (TraceContexts)
            Observation current = observations.getCurrentObservation();
            Mono<?> handled = apply(record).timeout(consumer.timeout());
            if (current != null) {
                handled = handled.contextWrite(context -> context.put(ObservationThreadLocalAccessor.KEY, current));
            }
            Object outcome = Failures.blockRethrowingErrors(handled);
            log.debug("Record {}-{}@{} (eventId {}): {}", consumed.topic(), consumed.partition(), consumed.offset(),
                    record.eventId(), outcome);
        } catch (PoisonRecord e) {
            log.warn("Record {}-{}@{} cannot apply ({}); it goes to {}", consumed.topic(), consumed.partition(),
                    consumed.offset(), e.getMessage(), consumer.deadLetterTopic());
            throw e;
        }
    }

    private Mono<?> apply(T record) {
        if (!consumer.isIdempotent()) {
            return Mono.defer(() -> consumer.handler().handle(record));
        }
        if (record.eventId() == null) {
            return Mono.error(new PoisonRecord("lacks eventId"));
        }
        return tx.transactional(processed.claim(consumer.claims(), record.eventId())
                .flatMap(claimed -> claimed
                        ? consumer.handler().handle(record).then(Mono.just("applied"))
                        : Mono.just("already applied")));
    }
}
