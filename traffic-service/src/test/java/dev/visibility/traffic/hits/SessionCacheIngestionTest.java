package dev.visibility.traffic.hits;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;

import dev.visibility.platform.events.TrafficHitObserved;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.reactive.TransactionalOperator;

/**
 * The session cache in the service's batches, against the real database: a row a committed batch left
 * is neither looked up nor written by a later batch it vouches for; a rolled-back batch leaves nothing
 * to vouch for; a row whose last day is a week old is looked up again. Each test makes the stored row
 * differ from what the cache remembers (which the service itself never does) to see which was read.
 */
class SessionCacheIngestionTest extends HitStatementTest {

    @Autowired
    HitIngestion ingestion;

    @Test
    void aBatchTheCommittedRowAlreadyHoldsIsNeitherLookedUpNorWritten() {
        UUID project = UUID.randomUUID();
        Instant at = Instant.now().minus(Duration.ofMinutes(1));
        LocalDate day = LocalDate.ofInstant(at, ZoneOffset.UTC);
        UUID key = SessionKeys.key(project, Scopes.PROJECT, Scopes.ROOT, "s1");
        committed(bot(project, "cloudflare", "acme.dev", "/docs", 200, "GPTBot", "s1", at));
        assertThat(session(key)).containsExactly(day, day, null);

        backdate(key);
        committed(bot(project, "cloudflare", "acme.dev", "/docs", 200, "GPTBot", "s1", at.minusSeconds(30)));
        assertThat(session(key)).as("covered: not written").containsExactly(day.minusDays(1), day.minusDays(1), null);

        // the row has no referral day: a referral hit of the session is looked up, and moves it
        committed(referral(project, "cloudflare", "acme.dev", "/docs", 200, "chatgpt.com", "s1", at));
        assertThat(session(key)).containsExactly(day, day.minusDays(1), day);
    }

    @Test
    void aRolledBackBatchLeavesNothingToVouchFor() {
        UUID project = UUID.randomUUID();
        Instant at = Instant.now().minus(Duration.ofMinutes(1));
        LocalDate day = LocalDate.ofInstant(at, ZoneOffset.UTC);
        UUID key = SessionKeys.key(project, Scopes.PROJECT, Scopes.ROOT, "s1");
        TrafficHitObserved hit = bot(project, "cloudflare", "acme.dev", "/docs", 200, "GPTBot", "s1", at);
        TransactionalOperator.create(transactions).execute(transaction -> {
            transaction.setRollbackOnly();
            return ingestion.apply(List.of(hit));
        }).blockLast();
        assertThat(session(key)).isNull();

        db.sql("INSERT INTO traffic_sessions (key, last_day, last_bot_day) VALUES (:key, :day, :day)")
                .bind("key", key).bind("day", day.minusDays(1)).then().block();
        committed(hit);
        assertThat(session(key)).as("looked up and moved").containsExactly(day, day, null);
    }

    @Test
    void aRowWhoseLastDayIsAWeekOldIsLookedUpAgain() {
        UUID project = UUID.randomUUID();
        Instant at = Instant.now().minus(Duration.ofDays(HitIngestion.CACHE_TRUST_DAYS + 1));
        LocalDate day = LocalDate.ofInstant(at, ZoneOffset.UTC);
        UUID key = SessionKeys.key(project, Scopes.PROJECT, Scopes.ROOT, "s1");
        TrafficHitObserved hit = referral(project, "cloudflare", "acme.dev", "/docs", 200, "chatgpt.com", "s1", at);
        committed(hit);
        assertThat(session(key)).containsExactly(day, null, day);

        backdate(key);
        committed(referral(project, "cloudflare", "acme.dev", "/docs", 200, "chatgpt.com", "s1", at));
        assertThat(session(key)).as("looked up and moved").containsExactly(day, null, day);
    }

    private void committed(TrafficHitObserved hit) {
        TransactionalOperator.create(transactions).transactional(ingestion.apply(List.of(hit))).block();
    }

    /** Moves the stored row's days a day back, as no batch ever does: a batch that reads the row moves it forward again. */
    private void backdate(UUID key) {
        db.sql("""
                UPDATE traffic_sessions SET last_day = last_day - 1, last_bot_day = last_bot_day - 1,
                    last_referral_day = last_referral_day - 1 WHERE key = :key""").bind("key", key).then().block();
    }
}
