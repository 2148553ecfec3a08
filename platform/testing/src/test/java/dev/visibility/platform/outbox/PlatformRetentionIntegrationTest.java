package dev.visibility.platform.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import dev.visibility.platform.testapp.TestApplication;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.r2dbc.core.DatabaseClient;

/**
 * Issue 22, retention: the platform's bookkeeping rows older than their retention are deleted
 * (in chunks), younger ones and unsent outbox rows are kept. Real PostgreSQL.
 */
@SpringBootTest(classes = TestApplication.class)
class PlatformRetentionIntegrationTest {

    @Autowired
    DatabaseClient db;

    @Test
    void rowsOlderThanTheirRetentionAreDeletedAndTheOthersKept() {
        String consumer = "retention-" + UUID.randomUUID();
        for (int n = 0; n < 5; n++) {
            exec("INSERT INTO processed_events (consumer, event_id, processed_at) VALUES ('" + consumer + "', '"
                    + UUID.randomUUID() + "', now() - interval '15 days')");
        }
        UUID recent = UUID.randomUUID();
        exec("INSERT INTO processed_events (consumer, event_id, processed_at) VALUES ('" + consumer + "', '" + recent
                + "', now() - interval '13 days')");
        UUID oldSent = outbox("now() - interval '2 days'");
        UUID oldUnsent = outbox(null);
        UUID newSent = outbox("now() - interval '1 hour'");
        UUID oldParked = deadLetter("now() - interval '31 days'");
        UUID newParked = deadLetter("now() - interval '29 days'");

        // defaults: processed events 14 days, dead letters 30 days; sent outbox rows 1 day; chunks of 2 rows
        PlatformRetention retention = new PlatformRetention(db, new RetentionProperties(true, null, null, null, 2),
                new OutboxProperties(true, null, null, null, null, null));
        assertThat(retention.sweep().block(Duration.ofSeconds(30))).isGreaterThanOrEqualTo(7);

        assertThat(count("SELECT count(*) FROM processed_events WHERE consumer = '" + consumer + "'")).isOne();
        assertThat(count("SELECT count(*) FROM processed_events WHERE event_id = '" + recent + "'")).isOne();
        assertThat(count("SELECT count(*) FROM outbox WHERE event_id = '" + oldSent + "'")).isZero();
        assertThat(count("SELECT count(*) FROM outbox WHERE event_id = '" + oldUnsent + "'")).isOne();
        assertThat(count("SELECT count(*) FROM outbox WHERE event_id = '" + newSent + "'")).isOne();
        assertThat(count("SELECT count(*) FROM outbox_dead_letters WHERE event_id = '" + oldParked + "'")).isZero();
        assertThat(count("SELECT count(*) FROM outbox_dead_letters WHERE event_id = '" + newParked + "'")).isOne();
        // the unsent row must not be relayed by another test's relay: it goes to a topic of its own
        exec("DELETE FROM outbox WHERE event_id = '" + oldUnsent + "'");
    }

    @Test
    void aServicesClaimTablesAreSweptAsProcessedEventsAre() {
        UUID old = claimTableWith("retention_claims", "15 days");
        UUID recent = claimTableWith("retention_claims", "13 days");

        // processed events are kept 14 days by default
        PlatformRetention retention = new PlatformRetention(db, new RetentionProperties(true, null, null, null, 2),
                new OutboxProperties(true, null, null, null, null, null), List.of(new ClaimTable("retention_claims")));
        assertThat(retention.sweep().block(Duration.ofSeconds(30))).isGreaterThanOrEqualTo(1);

        assertThat(count("SELECT count(*) FROM retention_claims WHERE event_id = '" + old + "'")).isZero();
        assertThat(count("SELECT count(*) FROM retention_claims WHERE event_id = '" + recent + "'")).isOne();
    }

    @Test
    void aClaimTableWithARetentionOfItsOwnIsSweptAfterIt() {
        UUID old = claimTableWith("short_claims", "3 days");
        UUID recent = claimTableWith("short_claims", "1 day");
        UUID processed = UUID.randomUUID();
        exec("INSERT INTO processed_events (consumer, event_id, processed_at) VALUES ('short-claims', '" + processed
                + "', now() - interval '3 days')");

        // the table's 2 days, not the 14 of processed_events (which keeps its 3-day-old row)
        PlatformRetention retention = new PlatformRetention(db, new RetentionProperties(true, null, null, null, 2),
                new OutboxProperties(true, null, null, null, null, null),
                List.of(new ClaimTable("short_claims", Duration.ofDays(2))));
        assertThat(retention.sweep().block(Duration.ofSeconds(30))).isGreaterThanOrEqualTo(1);

        assertThat(count("SELECT count(*) FROM short_claims WHERE event_id = '" + old + "'")).isZero();
        assertThat(count("SELECT count(*) FROM short_claims WHERE event_id = '" + recent + "'")).isOne();
        assertThat(count("SELECT count(*) FROM processed_events WHERE event_id = '" + processed + "'")).isOne();
    }

    /** Creates the claim table {@code table} unless it exists and claims a new eventId in it {@code age} ago. */
    private UUID claimTableWith(String table, String age) {
        exec("CREATE TABLE IF NOT EXISTS " + table + " (event_id uuid NOT NULL PRIMARY KEY,"
                + " claimed_at timestamptz NOT NULL DEFAULT now())");
        UUID eventId = UUID.randomUUID();
        exec("INSERT INTO " + table + " (event_id, claimed_at) VALUES ('" + eventId + "', now() - interval '" + age + "')");
        return eventId;
    }

    private UUID outbox(String sentAt) {
        UUID eventId = UUID.randomUUID();
        exec("INSERT INTO outbox (event_id, topic, message_key, event_type, payload, created_at, sent_at) VALUES ('"
                + eventId + "', 'retention-test', 'k', 'test.event', '{}', now() - interval '3 days', " + sentAt + ")");
        return eventId;
    }

    private UUID deadLetter(String parkedAt) {
        UUID eventId = UUID.randomUUID();
        exec("INSERT INTO outbox_dead_letters (id, event_id, topic, message_key, event_type, payload, created_at, attempts,"
                + " reason, parked_at) VALUES (nextval('outbox_id_seq'), '" + eventId
                + "', 'retention-test', 'k', 'test.event', '{}', now(), 1, 'test', " + parkedAt + ")");
        return eventId;
    }

    private void exec(String sql) {
        db.sql(sql).then().block();
    }

    private long count(String sql) {
        return db.sql(sql).map(row -> row.get(0, Long.class)).one().block();
    }
}
