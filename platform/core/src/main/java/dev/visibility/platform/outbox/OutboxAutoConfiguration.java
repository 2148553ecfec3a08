package dev.visibility.platform.outbox;

import dev.visibility.platform.db.DatabaseWakeups;
import dev.visibility.platform.tracing.TraceContexts;
import dev.visibility.platform.tracing.TraceContextsAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.r2dbc.spi.ConnectionFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.boot.r2dbc.autoconfigure.R2dbcAutoConfiguration;
import org.springframework.boot.r2dbc.autoconfigure.R2dbcTransactionManagerAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.ReactiveTransactionManager;
import tools.jackson.databind.ObjectMapper;

/** The outbox writer, the consumer de-duplication, the relay and database wake-ups, for every service with a database. */
@AutoConfiguration(after = {TraceContextsAutoConfiguration.class, R2dbcAutoConfiguration.class, R2dbcTransactionManagerAutoConfiguration.class,
        KafkaAutoConfiguration.class},
        afterName = "org.springframework.boot.data.r2dbc.autoconfigure.DataR2dbcAutoConfiguration")
@ConditionalOnClass({ConnectionFactory.class, KafkaTemplate.class})
@ConditionalOnBean(ConnectionFactory.class)
@EnableConfigurationProperties({OutboxProperties.class, RetentionProperties.class})
public class OutboxAutoConfiguration {

    @Bean
    OutboxWriter outboxWriter(DatabaseClient db, ObjectMapper mapper, ObjectProvider<TraceContexts> traces,
            DatabaseWakeups wakeups) {
        return new OutboxWriter(db, mapper, traces.getIfUnique(() -> new TraceContexts(ObservationRegistry.NOOP)), wakeups);
    }

    @Bean
    ProcessedEvents processedEvents(DatabaseClient db) {
        return new ProcessedEvents(db);
    }

    @Bean
    @ConditionalOnProperty(prefix = "suite.retention", name = "enabled", havingValue = "true", matchIfMissing = true)
    PlatformRetention platformRetention(DatabaseClient db, RetentionProperties retention, OutboxProperties outbox,
            ObjectProvider<ClaimTable> claimTables) {
        return new PlatformRetention(db, retention, outbox, claimTables.orderedStream().toList());
    }

    /** {@code suite.wakeups.listen}: false where each service runs as one instance (the local suite), see {@link DatabaseWakeups}. */
    @Bean
    DatabaseWakeups databaseWakeups(ConnectionFactory connections, @Value("${suite.wakeups.listen:true}") boolean listen) {
        return listen ? new DatabaseWakeups(connections) : DatabaseWakeups.inProcess();
    }

    @Bean
    @ConditionalOnProperty(prefix = "suite.outbox", name = "enabled", havingValue = "true", matchIfMissing = true)
    OutboxRelay outboxRelay(DatabaseClient db, ReactiveTransactionManager transactionManager,
            KafkaProperties kafkaProperties, DatabaseWakeups wakeups, OutboxProperties properties,
            ObjectProvider<ObservationRegistry> observations, ObjectProvider<MeterRegistry> meters) {
        OutboxRelay relay = OutboxRelay.create(db, transactionManager, kafkaProperties, wakeups, properties,
                observations.getIfUnique(() -> ObservationRegistry.NOOP));
        meters.ifUnique(relay::countDeadLettersIn);
        meters.ifUnique(relay::measureBacklogIn);
        return relay;
    }
}
