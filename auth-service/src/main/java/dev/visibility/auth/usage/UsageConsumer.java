package dev.visibility.auth.usage;

import java.util.UUID;

import dev.visibility.auth.config.Db;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.events.UsageRecorded;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;

/**
 * Sums the gateways' request counts ({@code usage.requests}) into per-project monthly counters.
 * Each record is applied in one database transaction together with the claim of its eventId, so
 * a redelivered record counts once. The offset is committed only after this method returns; a
 * failure is thrown, retried with back-off, and finally parked on the dead-letter topic.
 */
@Component
class UsageListener {

    private static final Logger log = LoggerFactory.getLogger(UsageListener.class);

    private final ObjectMapper mapper;
    private final UsageRepository usage;
    private final TransactionalOperator tx;

    UsageListener(ObjectMapper mapper, UsageRepository usage, TransactionalOperator tx) {
        this.mapper = mapper;
        this.usage = usage;
        this.tx = tx;
    }

    @KafkaListener(topics = Topics.USAGE_REQUESTS, containerFactory = UsageKafkaConfiguration.CONTAINER_FACTORY)
    void onUsageRecorded(ConsumerRecord<String, String> consumed) {
        UsageRecorded record;
        try {
            record = parse(consumed.value());
        } catch (UnusableUsageRecord e) {
            log.warn("Usage record {}-{}@{} is unusable ({}); it goes to {}", consumed.topic(), consumed.partition(),
                    consumed.offset(), e.getMessage(), UsageKafkaConfiguration.DEAD_LETTER_TOPIC);
            throw e;
        }
        UUID projectId = UUID.fromString(record.projectId());
        Boolean counted = Db.await(tx.transactional(usage.apply(record, projectId)));
        if (!Boolean.TRUE.equals(counted)) {
            log.debug("Usage record {} was already counted", record.eventId());
        }
    }

    UsageRecorded parse(String value) {
        if (value == null) {
            throw new UnusableUsageRecord("Usage record without a value");
        }
        UsageRecorded record;
        try {
            record = mapper.readValue(value, UsageRecorded.class);
        } catch (JacksonException e) {
            throw new UnusableUsageRecord("Usage record is not the JSON of UsageRecorded");
        }
        if (record == null || record.eventId() == null || record.intervalStart() == null || record.requests() < 0
                || !isUuid(record.projectId())) {
            throw new UnusableUsageRecord("Usage record lacks eventId, a UUID projectId, intervalStart or a count >= 0");
        }
        return record;
    }

    private static boolean isUuid(String value) {
        if (value == null || value.length() != 36) {
            return false;
        }
        try {
            return UUID.fromString(value).toString().equalsIgnoreCase(value);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
