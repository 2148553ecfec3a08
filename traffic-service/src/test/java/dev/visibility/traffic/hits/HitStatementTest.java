package dev.visibility.traffic.hits;

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
}
