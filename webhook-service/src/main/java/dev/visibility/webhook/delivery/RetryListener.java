package dev.visibility.webhook.delivery;

import dev.visibility.platform.consumer.PoisonRecord;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.stereotype.Component;

/**
 * Retries: consumes {@code webhook.deliveries-retry-1} and, through spring-kafka's non-blocking
 * retries ({@link DeliveryKafkaConfiguration}), {@code -retry-2} and {@code -retry-3}; one attempt
 * per record, each when its record is due. The dead-letter topic's records are handled by
 * {@link #onDeadLetter}.
 */
@Component("deliveryRetryListener")
public class RetryListener {

    public static final String ID = "webhook-delivery-retry";

    private static final Logger log = LoggerFactory.getLogger(RetryListener.class);

    private final DeliveryAttempts attempts;
    private final DeliveryRecords records;
    private final DeliveryStore store;

    RetryListener(DeliveryAttempts attempts, DeliveryRecords records, DeliveryStore store) {
        this.attempts = attempts;
        this.records = records;
        this.store = store;
    }

    @KafkaListener(id = ID, topics = DeliveryTopics.RETRY_FIRST, containerFactory = DeliveryKafkaConfiguration.RETRY_FACTORY)
    void onRetryDue(ConsumerRecord<String, String> record) {
        attempts.attemptAgain(records.parse(record.value()).deliveryId());
    }

    /** After the last attempt (or a record that could not be attempted): the delivery is {@code failed}. */
    public void onDeadLetter(ConsumerRecord<String, String> record) {
        DeliveryRequested requested;
        try {
            requested = records.parse(record.value());
        } catch (PoisonRecord e) {
            log.warn("Dead letter {}-{}@{} is not a delivery record: {}", record.topic(), record.partition(),
                    record.offset(), e.getMessage());
            return;
        }
        Long changed;
        try {
            changed = store.finish(new UUID[] {requested.deliveryId()}, DeliveryState.FAILED).block(Duration.ofSeconds(15));
        } catch (RuntimeException e) {
            throw new DeliveryStoreUnavailable(e);
        }
        if (changed != null && changed > 0) {
            // not after a last failed attempt (that one stored the state): say what went wrong
            log.warn("Delivery {} is failed: it could not be attempted ({})", requested.deliveryId(),
                    header(record, KafkaHeaders.DLT_EXCEPTION_FQCN));
        }
    }

    private static String header(ConsumerRecord<?, ?> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? "unknown" : new String(header.value(), StandardCharsets.UTF_8);
    }
}
