package dev.visibility.platform.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/**
 * Issue 23, docs/operations.md: the outbox's backlog gauges. {@code outbox.backlog} counts the
 * rows not yet sent and {@code outbox.oldest.unsent.age} is the age of the oldest of them, read
 * from the table by one statement; once the relay has sent the rows, both come back down. Real
 * PostgreSQL and Kafka; no other relay runs on the test schema (suite.outbox.enabled=false).
 */
class OutboxBacklogGaugesIntegrationTest extends OutboxTestSupport {

    @Test
    void backlogAndAgeOfTheOldestUnsentRowFollowTheTable() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        OutboxRelay relay = newRelay();
        relay.measureBacklogIn(meters);
        // before the first read the gauges show no value rather than a made-up zero
        assertThat(meters.get("outbox.backlog").gauge().value()).isNaN();
        relay.refreshBacklog().block();
        double before = meters.get("outbox.backlog").gauge().value();
        long unsentBefore = db.sql("SELECT count(*) FROM outbox WHERE sent_at IS NULL")
                .map(row -> row.get(0, Long.class)).one().block();
        assertThat(before).isEqualTo(unsentBefore);

        String topic = "outbox-backlog-" + UUID.randomUUID();
        for (int i = 0; i < 2; i++) {
            append(topic, "k", UUID.randomUUID(), Map.of("n", i));
        }
        // a row written 90 seconds ago that nothing has sent yet
        UUID old = UUID.randomUUID();
        db.sql("""
                INSERT INTO outbox (event_id, topic, message_key, event_type, payload, created_at)
                VALUES (:id, :topic, 'k', 'test.event', '{"n": "old"}', now() - interval '90 seconds')""")
                .bind("id", old).bind("topic", topic).then().block();

        relay.refreshBacklog().block();
        assertThat(meters.get("outbox.backlog").gauge().value()).isEqualTo(before + 3);
        assertThat(meters.get("outbox.oldest.unsent.age").gauge().value()).isBetween(90.0, 3600.0);

        relay.start();
        try {
            await("the relay sends the three rows").atMost(Duration.ofSeconds(30)).until(() -> db.sql(
                    "SELECT count(*) FROM outbox WHERE topic = :topic AND sent_at IS NULL").bind("topic", topic)
                    .map(row -> row.get(0, Long.class)).one().block() == 0);
            // started with backlog measuring on, the relay reads the table itself every 5 s
            await("the gauges read the table again").atMost(Duration.ofSeconds(30))
                    .until(() -> meters.get("outbox.backlog").gauge().value() == before);
        } finally {
            relay.stop();
        }
        if (before == 0) {
            assertThat(meters.get("outbox.oldest.unsent.age").gauge().value()).isZero();
        }
    }

    /**
     * The table is read only while the gauges are (docs/operations.md): a relay whose gauges no
     * scrape read within two minutes runs no statement for them, and the first scrape after such a
     * pause shows no value rather than a reading from before it; while scrapes continue, the last
     * reading stays, so that a relay whose reads fail keeps showing the age growing.
     */
    @Test
    void theGaugesAreReadFromTheTableOnlyWhileScrapedAndNeverShowAReadingFromBeforeAPause() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        OutboxRelay relay = newRelay();
        AtomicLong clock = new AtomicLong(1_000_000_000L);
        relay.backlogClock(clock::get);
        relay.measureBacklogIn(meters);
        assertThat(relay.backlogWatched()).as("no scrape yet").isFalse();

        relay.refreshBacklog().block();
        long unsent = db.sql("SELECT count(*) FROM outbox WHERE sent_at IS NULL")
                .map(row -> row.get(0, Long.class)).one().block();
        assertThat(meters.get("outbox.backlog").gauge().value()).isEqualTo(unsent);
        assertThat(relay.backlogWatched()).as("just scraped").isTrue();

        clock.addAndGet(Duration.ofSeconds(11).toNanos());
        assertThat(meters.get("outbox.backlog").gauge().value()).as("scraped again 11 s later, no new reading")
                .isEqualTo(unsent);

        clock.addAndGet(Duration.ofSeconds(119).toNanos());
        assertThat(relay.backlogWatched()).as("scraped 119 s ago").isTrue();
        clock.addAndGet(Duration.ofSeconds(2).toNanos());
        assertThat(relay.backlogWatched()).as("scraped 121 s ago").isFalse();
        assertThat(meters.get("outbox.backlog").gauge().value()).as("the first scrape after the pause").isNaN();
        assertThat(meters.get("outbox.oldest.unsent.age").gauge().value()).as("the first scrape after the pause").isNaN();
        assertThat(relay.backlogWatched()).as("scraped again").isTrue();

        relay.refreshBacklog().block();
        assertThat(meters.get("outbox.backlog").gauge().value()).as("a reading after the pause").isEqualTo(unsent);
    }
}
