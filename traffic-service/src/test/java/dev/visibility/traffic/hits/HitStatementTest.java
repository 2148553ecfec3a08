package dev.visibility.traffic.hits;

import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import dev.visibility.traffic.support.TrafficTest;
import org.reactivestreams.Publisher;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;

/** Base of the tests that run one of {@link HitIngestion}'s statements by hand, as a batch does. */
abstract class HitStatementTest extends TrafficTest {

    @Autowired
    ReactiveTransactionManager transactions;

    /** {@code work} in a transaction with the batch transaction's settings ({@link HitIngestion#SETTINGS}). */
    protected <T> Flux<T> inBatchTransaction(Publisher<T> work) {
        return TransactionalOperator.create(transactions).transactional(
                db.sql("SELECT " + HitIngestion.SETTINGS).bind("timeout", "60000").fetch().all().thenMany(work));
    }

    /** A session scope's stored last day, last bot day and last referral day (null for none); null without a row. */
    protected List<LocalDate> session(UUID key) {
        return db.sql("SELECT last_day, last_bot_day, last_referral_day FROM traffic_sessions WHERE key = :key")
                .bind("key", key)
                .map(row -> Arrays.asList(row.get(0, LocalDate.class), row.get(1, LocalDate.class),
                        row.get(2, LocalDate.class)))
                .one().block();
    }
}
