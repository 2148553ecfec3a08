package dev.visibility.auth.usage;

import dev.visibility.auth.config.Db;
import dev.visibility.platform.consumer.TopicConsumer;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.events.UsageRecorded;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Sums the gateways' request counts ({@code usage.requests}) into per-project monthly counters,
 * through the platform's {@link TopicConsumer}: the platform reads and validates each record
 * (the constraints of {@link UsageRecorded}), claims its eventId in the same database transaction
 * as the count, so a redelivered record counts once, and commits the offset afterwards. An
 * unusable record goes to {@code usage.requests.DLT} at once; while the database is unavailable
 * the record is retried, never dead-lettered.
 */
@Configuration(proxyBeanMethods = false)
class UsageConsumer {

    /** The name under which this consumer claims eventIds in {@code processed_events}. */
    static final String CONSUMER = "auth-service.usage-requests";

    @Bean
    TopicConsumer<UsageRecorded> usageRequestsConsumer(UsageRepository usage) {
        return TopicConsumer.of(Topics.USAGE_REQUESTS, UsageRecorded.class, usage::add)
                .idempotent(CONSUMER)
                .timeout(Db.TIMEOUT);
    }
}
