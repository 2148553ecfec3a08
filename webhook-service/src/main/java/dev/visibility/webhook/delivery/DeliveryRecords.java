package dev.visibility.webhook.delivery;

import dev.visibility.platform.consumer.PoisonRecord;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;

import dev.visibility.platform.events.Topics;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.springframework.kafka.retrytopic.RetryTopicHeaders;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;

/** The JSON of {@link DeliveryRequested} records, both ways. */
@Component
class DeliveryRecords {

    private final ObjectMapper mapper;

    DeliveryRecords(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /** A record asking for an attempt of the delivery, keyed by webhook, with the headers every record carries. */
    ProducerRecord<String, String> request(String topic, UUID deliveryId, UUID webhookId) {
        ProducerRecord<String, String> record = new ProducerRecord<>(topic, webhookId.toString(),
                mapper.writeValueAsString(new DeliveryRequested(deliveryId, webhookId)));
        record.headers().add(Topics.EVENT_ID_HEADER, deliveryId.toString().getBytes(StandardCharsets.UTF_8));
        record.headers().add(Topics.EVENT_TYPE_HEADER, DeliveryRequested.TYPE.getBytes(StandardCharsets.UTF_8));
        return record;
    }

    /** The same, for the first retry topic, due at {@code notBefore} (the header the retry container waits for). */
    ProducerRecord<String, String> retry(UUID deliveryId, UUID webhookId, Instant notBefore) {
        ProducerRecord<String, String> record = request(DeliveryTopics.RETRY_FIRST, deliveryId, webhookId);
        record.headers().add(RetryTopicHeaders.DEFAULT_HEADER_BACKOFF_TIMESTAMP,
                BigInteger.valueOf(notBefore.toEpochMilli()).toByteArray());
        return record;
    }

    DeliveryRequested parse(String value) {
        if (value == null) {
            throw new PoisonRecord("a delivery record without a value");
        }
        DeliveryRequested requested;
        try {
            requested = mapper.readValue(value, DeliveryRequested.class);
        } catch (JacksonException e) {
            throw new PoisonRecord("a delivery record that is not the JSON of DeliveryRequested");
        }
        if (requested == null || requested.deliveryId() == null || requested.webhookId() == null) {
            throw new PoisonRecord("a delivery record without deliveryId or webhookId");
        }
        return requested;
    }
}
