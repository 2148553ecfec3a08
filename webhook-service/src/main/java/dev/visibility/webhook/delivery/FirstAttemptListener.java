package dev.visibility.webhook.delivery;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/**
 * First attempts: consumes {@code webhook.deliveries} a batch at a time. The batch's attempts are
 * made and stored ({@link DeliveryAttempts#attemptFirst}), the failed ones are put on
 * {@code webhook.deliveries-retry-1} with their due time and the broker's acknowledgement awaited;
 * only then does the listener return and the offsets get committed. A record that is not a
 * delivery request goes unchanged to the dead-letter topic.
 */
@Component
class FirstAttemptListener {

    public static final String ID = "webhook-delivery";

    private static final Logger log = LoggerFactory.getLogger(FirstAttemptListener.class);
    private static final long SEND_LIMIT_SECONDS = 30;

    private final DeliveryAttempts attempts;
    private final DeliveryRecords records;
    private final DeliveryKafkaConfiguration.StringRecords kafka;

    FirstAttemptListener(DeliveryAttempts attempts, DeliveryRecords records, DeliveryKafkaConfiguration.StringRecords kafka) {
        this.attempts = attempts;
        this.records = records;
        this.kafka = kafka;
    }

    @KafkaListener(id = ID, topics = DeliveryTopics.FIRST, containerFactory = DeliveryKafkaConfiguration.FIRST_ATTEMPT_FACTORY,
            batch = "true")
    void onDeliveriesRequested(List<ConsumerRecord<String, String>> batch) {
        Set<UUID> deliveryIds = new LinkedHashSet<>();
        List<CompletableFuture<?>> sent = new ArrayList<>();
        for (ConsumerRecord<String, String> record : batch) {
            try {
                deliveryIds.add(records.parse(record.value()).deliveryId());
            } catch (UnusableRecord e) {
                log.warn("Delivery record {}-{}@{} is unusable ({}); it goes to {}", record.topic(), record.partition(),
                        record.offset(), e.getMessage(), DeliveryTopics.DEAD_LETTERS);
                sent.add(kafka.template.send(new ProducerRecord<>(DeliveryTopics.DEAD_LETTERS, null, record.key(),
                        record.value(), record.headers())));
            }
        }
        if (!deliveryIds.isEmpty()) {
            for (DeliveryAttempts.Retry retry : attempts.attemptFirst(List.copyOf(deliveryIds))) {
                sent.add(kafka.template.send(records.retry(retry.deliveryId(), retry.webhookId(), retry.notBefore())));
            }
        }
        if (!sent.isEmpty()) {
            try {
                CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(SEND_LIMIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new DeliveryStoreUnavailable(e);
            } catch (Exception e) {
                throw new DeliveryStoreUnavailable(e);
            }
        }
    }
}
