package dev.visibility.auth.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.visibility.platform.db.DatabaseWakeups;
import dev.visibility.platform.tracing.TraceContexts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import reactor.core.Disposable;
import tools.jackson.databind.ObjectMapper;

/**
 * With wake-ups in process ({@code suite.wakeups.listen=false}, the local suite), auth-service's
 * JDBC outbox wakes the platform's relay once the JDBC transaction that appended has committed,
 * never for one rolled back. Real PostgreSQL.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class JdbcOutboxWakeTest {

    @Autowired
    JdbcClient jdbc;
    @Autowired
    ObjectMapper mapper;
    @Autowired
    TraceContexts traces;
    @Autowired
    PlatformTransactionManager transactions;

    private final DatabaseWakeups wakeups = DatabaseWakeups.inProcess();
    private final List<String> seen = new CopyOnWriteArrayList<>();
    private Disposable subscription;
    private JdbcOutbox outbox;

    @BeforeEach
    void setUp() {
        outbox = new JdbcOutbox(jdbc, mapper, traces, wakeups);
        wakeups.start();
        subscription = wakeups.of("outbox").subscribe(seen::add);
    }

    @AfterEach
    void tearDown() {
        subscription.dispose();
        wakeups.stop();
    }

    private long rows(UUID eventId) {
        return jdbc.sql("SELECT count(*) FROM outbox WHERE event_id = :id").param("id", eventId).query(Long.class).single();
    }

    @Test
    void aCommittedAppendWakesTheRelayAfterTheCommitAndARolledBackOneNever() {
        TransactionTemplate tx = new TransactionTemplate(transactions);
        UUID rolledBack = UUID.randomUUID();
        tx.executeWithoutResult(status -> {
            outbox.append("auth.test", "k", rolledBack, "test.event", Map.of("n", 1));
            status.setRollbackOnly();
        });
        assertThat(seen).isEmpty();
        assertThat(rows(rolledBack)).isZero();

        UUID committed = UUID.randomUUID();
        tx.executeWithoutResult(status -> {
            outbox.append("auth.test", "k", committed, "test.event", Map.of("n", 2));
            // inside the transaction the row is not committed yet: no wake-up before the commit
            assertThat(seen).isEmpty();
        });
        assertThat(seen).containsExactly("outbox");
        assertThat(rows(committed)).isEqualTo(1);
    }

    @Test
    void anAppendOutsideATransactionWakesTheRelayAtOnce() {
        UUID eventId = UUID.randomUUID();
        outbox.append("auth.test", "k", eventId, "test.event", Map.of("n", 3));
        assertThat(seen).containsExactly("outbox");
        assertThat(rows(eventId)).isEqualTo(1);
    }
}
