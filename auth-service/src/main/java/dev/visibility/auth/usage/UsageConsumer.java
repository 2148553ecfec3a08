package dev.visibility.auth.usage;

import dev.visibility.auth.config.Db;
import dev.visibility.platform.consumer.PoisonRecord;
import dev.visibility.platform.consumer.TopicConsumer;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.events.UsageRecorded;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.support.TransactionTemplate;
import reactor.core.publisher.Mono;

/**
 * Sums the gateways' request counts ({@code usage.requests}) into per-project monthly counters,
 * through the platform's {@link TopicConsumer}: the platform reads and validates each record
 * (the constraints of {@link UsageRecorded}) and commits the offset after the handler. The
 * handler claims the record's eventId in {@code processed_events} in the same JDBC transaction
 * as the count (the platform's {@code idempotent} claim joins R2DBC transactions only), so a
 * redelivered record counts once. An unusable record goes to {@code usage.requests.DLT} at once;
 * while the database is unavailable the record is retried, never dead-lettered.
 */
@Configuration(proxyBeanMethods = false)
class UsageConsumer {

    /** The name under which this consumer claims eventIds in {@code processed_events}. */
    static final String CONSUMER = "auth-service.usage-requests";

    @Bean
    TopicConsumer<UsageRecorded> usageRequestsConsumer(UsageRepository usage, TransactionTemplate tx) {
        // runs on the Kafka listener thread, which waits for it anyway
        return TopicConsumer.of(Topics.USAGE_REQUESTS, UsageRecorded.class, record -> Mono.fromCallable(() -> {
                    if (record.eventId() == null) {
                        throw new PoisonRecord("lacks eventId");
                    }
                    return tx.execute(status -> {
                        if (!usage.claim(CONSUMER, record.eventId())) {
                            return "already applied";
                        }
                        usage.add(record);
                        return "applied";
                    });
                }))
                .timeout(Db.TIMEOUT);
    }
}
