package dev.visibility.webhook.delivery;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import dev.visibility.platform.consumer.TopicConsumer;
import dev.visibility.platform.events.StringProducer;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * First attempts: the batch handler of the platform's consumer of {@code webhook.deliveries}
 * ({@link DeliveryConsumers}), which has already validated the records against
 * {@code docs/events/webhook.deliveries.schema.json} and sent unusable ones to
 * {@code webhook.deliveries.DLT}. The batch's attempts are made and stored
 * ({@link DeliveryAttempts#attemptFirst}), the failed ones are put on
 * {@code webhook.deliveries-retry-1} with their due time and the broker's acknowledgement awaited;
 * only then does the handler complete and the offsets get committed.
 */
@Component
class FirstAttemptListener {

    /** The id of the container of first attempts. */
    public static final String ID = TopicConsumer.listenerId(DeliveryTopics.FIRST);

    private static final Duration SEND_LIMIT = Duration.ofSeconds(30);

    private final DeliveryAttempts attempts;
    private final DeliveryRecords records;
    private final StringProducer producer;

    FirstAttemptListener(DeliveryAttempts attempts, DeliveryRecords records, StringProducer producer) {
        this.attempts = attempts;
        this.records = records;
        this.producer = producer;
    }

    /** Runs on the consumer's thread: the attempts block it, which is what holds the partition meanwhile. */
    Mono<Void> attemptFirst(List<DeliveryRequested> batch) {
        return Mono.fromCallable(() -> {
            Set<UUID> deliveryIds = new LinkedHashSet<>();
            batch.forEach(requested -> deliveryIds.add(requested.deliveryId()));
            List<CompletableFuture<?>> sent = new ArrayList<>();
            for (DeliveryAttempts.Retry retry : attempts.attemptFirst(List.copyOf(deliveryIds))) {
                sent.add(producer.template().send(records.retry(retry.deliveryId(), retry.webhookId(), retry.notBefore())));
            }
            return CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new));
        }).flatMap(sent -> Mono.fromFuture(sent).timeout(SEND_LIMIT)).then();
    }
}
