package dev.visibility.platform.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Properties;

import dev.visibility.platform.testapp.TestApplication;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.r2dbc.core.DatabaseClient;

/**
 * Issue 24: a pooled connection is replaced after {@code spring.r2dbc.pool.max-life-time} (the platform's default 30
 * minutes, the local suite's 2), so that no PostgreSQL backend keeps for hours the shared buffers it touched. Here a
 * second, on the real PostgreSQL: the pool hands out a new backend, and the old one exits.
 */
@SpringBootTest(classes = TestApplication.class, properties = "spring.r2dbc.pool.max-life-time=1s")
class ConnectionLifetimeIntegrationTest {

    @Autowired
    DatabaseClient db;

    private int backendPid() {
        return db.sql("SELECT pg_backend_pid() AS pid").map(row -> row.get("pid", Integer.class)).one().block();
    }

    private long backendsWithPid(int pid) {
        return db.sql("SELECT count(*) AS n FROM pg_stat_activity WHERE pid = :pid").bind("pid", pid)
                .map(row -> row.get("n", Long.class)).one().block();
    }

    @Test
    void aConnectionPastItsLifeTimeIsClosedAndTheNextQueryRunsOnANewBackend() {
        int first = backendPid();
        assertThat(backendsWithPid(first)).isEqualTo(1);

        // a later query runs on another backend
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(this::backendPid, pid -> pid != first);
        // the first connection was closed, not parked: its backend is gone. (Nothing is asserted of the later
        // backend: with a life of one second it may be replaced too before the next look, as CI once saw.)
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> backendsWithPid(first) == 0);
    }

    @Test
    void theServicesReplaceTheirConnectionsAfterThirtyMinutesByDefault() throws IOException {
        Properties defaults = new Properties();
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("platform-defaults.properties")) {
            assertThat(in).isNotNull();
            defaults.load(in);
        }
        assertThat(defaults.getProperty("spring.r2dbc.pool.max-life-time")).isEqualTo("30m");
    }
}
