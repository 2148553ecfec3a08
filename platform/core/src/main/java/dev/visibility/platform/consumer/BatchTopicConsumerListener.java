package dev.visibility.platform.consumer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.visibility.platform.events.StringProducer;
import dev.visibility.platform.outbox.ProcessedEvents;
import dev.visibility.platform.tracing.TraceContexts;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.KafkaProducerException;
import org.springframework.kafka.listener.BatchMessageListener;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * The listener of a batch {@link TopicConsumer}: reads and validates every record of the poll,
 * hands the valid ones (those not applied before, for an idempotent consumer) to the handler in one
 * call, then sends the poison ones to the dead-letter topic and waits for the broker's
 * acknowledgement; only then are the offsets committed. A failure of the handler is thrown to the
 * container, which tries the whole batch again with the consumer paused (transient failures for as
 * long as they last); after {@code unexpectedRetries} unexpected failures of the same batch (at once
 * for a failure classified as poison) an idempotent consumer applies its records one at a time and
 * dead-letters those that fail alone, and any other consumer dead-letters the batch's records, with
 * the failure's class as the reason, so that the partitions move on.
 */
final class BatchTopicConsumerListener<T extends ConsumedRecord> implements BatchMessageListener<String, String> {

    private static final Logger log = LoggerFactory.getLogger(BatchTopicConsumerListener.class);
    private static final Duration SEND_LIMIT = Duration.ofSeconds(30);

    private final TopicConsumer<T> consumer;
    private final RecordReader<T> reader;
    private final ProcessedEvents processed;
    private final TransactionalOperator tx;
    private final StringProducer deadLetters;
    private final int unexpectedRetries;
    /** The batch that failed unexpectedly (its first record's position) and how often. */
    private String failingBatch;
    private int unexpectedFailures;

    BatchTopicConsumerListener(TopicConsumer<T> consumer, RecordReader<T> reader, ProcessedEvents processed,
            TransactionalOperator tx, StringProducer deadLetters, int unexpectedRetries) {
        this.consumer = consumer;
        this.reader = reader;
        this.processed = processed;
        this.tx = tx;
        this.deadLetters = deadLetters;
        this.unexpectedRetries = unexpectedRetries;
    }

    @Override
    public void onMessage(List<ConsumerRecord<String, String>> batch) {
        if (batch.isEmpty()) {
            return;
        }
        List<T> valid = new ArrayList<>(batch.size());
        List<ConsumerRecord<String, String>> validConsumed = new ArrayList<>(batch.size());
        Map<ConsumerRecord<String, String>, String> poison = new LinkedHashMap<>();
        // each record's trace context, for handlers that keep it (TopicConsumer.tracedBatch)
        Map<Object, String> traces = new java.util.IdentityHashMap<>();
        for (ConsumerRecord<String, String> consumed : batch) {
            try {
                T record = reader.read(consumed.value());
                valid.add(record);
                validConsumed.add(consumed);
                String traceparent = TraceContexts.traceparent(consumed.headers());
                if (traceparent != null) {
                    traces.put(record, traceparent);
                }
            } catch (PoisonRecord e) {
                log.warn("Record {}-{}@{} is unusable ({}); it goes to {}", consumed.topic(), consumed.partition(),
                        consumed.offset(), e.getMessage(), consumer.deadLetterTopic());
                poison.put(consumed, Failures.reason(e));
            }
        }
        try {
            while (!valid.isEmpty()) {
                try {
                    applyNow(valid, traces);
                    break;
                } catch (RuntimeException failure) {
                    // the handler named one record that can never apply: it alone is dead-lettered, the rest tried again
                    int named = namedPoison(valid, failure);
                    if (named < 0) {
                        throw failure;
                    }
                    valid.remove(named);
                    cannotApply(validConsumed.remove(named), failure, poison);
                }
            }
        } catch (RuntimeException failure) {
            if (!giveUp(batch, failure)) {
                throw failure;
            }
            if (consumer.isIdempotent() && valid.size() > 1) {
                // which record is it? Each alone: only those that cannot apply are dead-lettered (a
                // transient failure on the way throws, and the batch is read again: the records applied
                // alone by then are skipped by their claims)
                log.warn("A batch of {} from {}-{}@{} failed {} times ({}); its records are applied one at a time",
                        batch.size(), batch.get(0).topic(), batch.get(0).partition(), batch.get(0).offset(),
                        unexpectedFailures, failure.getClass().getName());
                for (int i = 0; i < valid.size(); i++) {
                    try {
                        applyNow(List.of(valid.get(i)), traces);
                    } catch (RuntimeException alone) {
                        if (Failures.classify(alone) == Failures.Kind.TRANSIENT) {
                            throw alone;
                        }
                        cannotApply(validConsumed.get(i), alone, poison);
                    }
                }
            } else {
                log.error("A batch of {} from {}-{}@{} failed {} times ({}); its records go to {}", batch.size(),
                        batch.get(0).topic(), batch.get(0).partition(), batch.get(0).offset(), unexpectedFailures,
                        failure.getClass().getName(), consumer.deadLetterTopic());
                String reason = Failures.reason(failure);
                poison.clear();
                batch.forEach(consumed -> poison.put(consumed, reason));
            }
        }
        deadLetter(poison);
        failingBatch = null;
        unexpectedFailures = 0;
    }

    /** Applies the records (claims and handler, in one transaction) and waits for it, within the consumer's time-out. */
    private void applyNow(List<T> records, Map<Object, String> traces) {
        Failures.blockRethrowingErrors(apply(records).timeout(consumer.timeout())
                .contextWrite(context -> context.put(Traced.CONTEXT_KEY, traces)));
    }

    /** Marks a record that failed alone (or that the handler named) for the dead-letter topic, with the failure's reason. */
    private void cannotApply(ConsumerRecord<String, String> consumed, RuntimeException failure,
            Map<ConsumerRecord<String, String>, String> poison) {
        String reason = Failures.reason(failure);
        log.warn("Record {}-{}@{} cannot apply ({}); it goes to {}", consumed.topic(), consumed.partition(),
                consumed.offset(), reason, consumer.deadLetterTopic());
        poison.put(consumed, reason);
    }

    /** The position in {@code valid} of the record a {@link PoisonRecord} among the failure's causes names, or -1. */
    private static int namedPoison(List<?> valid, Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof PoisonRecord poison && poison.record() != null) {
                for (int i = 0; i < valid.size(); i++) {
                    if (valid.get(i) == poison.record()) {
                        return i;
                    }
                }
                return -1;
            }
        }
        return -1;
    }

    /** Counts an unexpected failure of this batch; true once it failed more than the retries allow. */
    private boolean giveUp(List<ConsumerRecord<String, String>> batch, RuntimeException failure) {
        if (Failures.classify(failure) == Failures.Kind.TRANSIENT) {
            return false;
        }
        ConsumerRecord<String, String> first = batch.get(0);
        String position = first.topic() + "-" + first.partition() + "@" + first.offset() + "+" + batch.size();
        if (!position.equals(failingBatch)) {
            failingBatch = position;
            unexpectedFailures = 0;
        }
        unexpectedFailures++;
        return Failures.classify(failure) == Failures.Kind.POISON || unexpectedFailures > unexpectedRetries;
    }

    private Mono<?> apply(List<T> records) {
        if (!consumer.isIdempotent()) {
            return Mono.defer(() -> consumer.batchHandler().handle(records));
        }
        List<UUID> ids = new ArrayList<>(records.size());
        for (T record : records) {
            if (record.eventId() == null) {
                return Mono.error(new PoisonRecord("lacks eventId"));
            }
            ids.add(record.eventId());
        }
        // first as if no record had been applied before, as is the rule (a claim then costs the index one
        // look instead of two); if one was, that transaction rolls back and the batch is applied again
        // with the claim that skips the records applied before
        return tx.transactional(processed.claimAllNew(consumer.claims(), ids).flatMap(claimed -> applyClaimed(records, claimed)))
                .onErrorResume(ProcessedEvents.ClaimedBefore.class, before -> {
                    log.info("Some of a batch of {} from {} were applied before (redelivered); applying the rest",
                            records.size(), consumer.topic());
                    return tx.transactional(processed.claimAll(consumer.claims(), ids)
                            .flatMap(claimed -> applyClaimed(records, claimed)));
                });
    }

    /** Applies those of {@code records} whose eventIds this transaction claimed ({@code claimed}, emptied). */
    private Mono<String> applyClaimed(List<T> records, Set<UUID> claimed) {
        List<T> fresh = new ArrayList<>(claimed.size());
        for (T record : records) {
            // the first of two records with one eventId in the same batch is applied
            if (claimed.remove(record.eventId())) {
                fresh.add(record);
            }
        }
        return fresh.isEmpty()
                ? Mono.just("already applied")
                : consumer.batchHandler().handle(fresh).then(Mono.just("applied"));
    }

    private void deadLetter(Map<ConsumerRecord<String, String>, String> records) {
        if (records.isEmpty()) {
            return;
        }
        List<CompletableFuture<?>> sent = new ArrayList<>(records.size());
        records.forEach((consumed, reason) -> {
            RecordHeaders headers = new RecordHeaders(consumed.headers().toArray());
            headers.remove(DeadLetters.REASON_HEADER);
            headers.add(new RecordHeader(DeadLetters.REASON_HEADER, reason.getBytes(StandardCharsets.UTF_8)));
            sent.add(deadLetters.template().send(new ProducerRecord<>(consumer.deadLetterTopic(), null,
                    consumed.key(), consumed.value(), headers)));
        });
        try {
            CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(SEND_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while dead-lettering", e);
        } catch (Exception e) {
            // the broker did not take them: the batch is tried again (its valid records are applied once)
            throw new KafkaProducerException(null, "Dead letters of " + consumer.topic() + " not sent", e);
        }
    }
}
