package dev.visibility.platform.outbox;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

import dev.visibility.platform.db.DatabaseWakeups;
import dev.visibility.platform.testapp.TestApplication;
import dev.visibility.platform.tracing.TraceContexts;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.reactive.TransactionalOperator;
import tools.jackson.databind.ObjectMapper;

/**
 * What the outbox's integration tests share: the test application's context on the shared
 * PostgreSQL and broker (its own relay is off: {@code suite.outbox.enabled=false}), relays of a
 * test's own made from it, rows appended in a transaction of their own, and the reads of rows and
 * record headers.
 */
@SpringBootTest(classes = TestApplication.class)
abstract class OutboxTestSupport {

    @Autowired
    DatabaseClient db;
    @Autowired
    ReactiveTransactionManager transactionManager;
    @Autowired
    KafkaProperties kafkaProperties;
    @Autowired
    OutboxWriter writer;
    @Autowired
    DatabaseWakeups wakeups;
    @Autowired
    ObjectMapper mapper;
    @Autowired
    TraceContexts traces;

    TransactionalOperator tx() {
        return TransactionalOperator.create(transactionManager);
    }

    /** A relay (not started) that polls every 50 ms, in batches of 100. */
    OutboxRelay newRelay() {
        return newRelay(Duration.ofMillis(50), Duration.ofMillis(50), 100);
    }

    OutboxRelay newRelay(Duration pollInterval, Duration idlePollInterval, int batchSize) {
        return OutboxRelay.create(db, transactionManager, kafkaProperties, wakeups,
                relayProperties(pollInterval, idlePollInterval, batchSize));
    }

    /** The relay's settings: on, these intervals and batch size, a 20 s send time-out, the default retention. */
    static OutboxProperties relayProperties(Duration pollInterval, Duration idlePollInterval, int batchSize) {
        return new OutboxProperties(true, pollInterval, idlePollInterval, batchSize, Duration.ofSeconds(20), null);
    }

    /** Appends one {@code test.event} row in a transaction of its own. */
    void append(String topic, String key, UUID eventId, Object payload) {
        tx().transactional(writer.append(topic, key, eventId, "test.event", payload)).block();
    }

    long count(String sql) {
        return db.sql(sql).map(row -> row.get(0, Long.class)).one().block();
    }

    static String header(ConsumerRecord<?, ?> record, String name) {
        return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }
}
