package dev.visibility.platform.consumer;

import java.net.ConnectException;
import java.util.concurrent.TimeoutException;

import io.r2dbc.spi.R2dbcNonTransientResourceException;
import io.r2dbc.spi.R2dbcTransientException;
import org.apache.kafka.common.errors.RetriableException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.kafka.core.KafkaProducerException;
import org.springframework.transaction.CannotCreateTransactionException;
import reactor.core.Exceptions;
import reactor.core.publisher.Mono;

/**
 * How a failure of a consumed record is treated, decided from the exception and its causes:
 * <ul>
 * <li>{@link Kind#POISON}: a {@link PoisonRecord}; no retry can help, the record goes to the
 * dead-letter topic at once;</li>
 * <li>{@link Kind#TRANSIENT}: the database or the broker is unavailable or slow (connection refused
 * or lost, pool or statement time-out, a transaction that cannot start, a deadlock, a failed send);
 * retried with capped exponential back-off for as long as it lasts, never dead-lettered;</li>
 * <li>{@link Kind#UNEXPECTED}: anything else (a bug, a constraint the record breaks); retried a few
 * times, then dead-lettered so that the partition moves on.</li>
 * </ul>
 */
public final class Failures {

    public enum Kind { POISON, TRANSIENT, UNEXPECTED }

    private Failures() {
    }

    public static Kind classify(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof PoisonRecord) {
                return Kind.POISON;
            }
        }
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (isTransient(t)) {
                return Kind.TRANSIENT;
            }
        }
        return Kind.UNEXPECTED;
    }

    private static boolean isTransient(Throwable t) {
        return t instanceof DataAccessResourceFailureException
                || t instanceof TransientDataAccessException
                || t instanceof RecoverableDataAccessException
                || t instanceof CannotCreateTransactionException
                || t instanceof R2dbcTransientException
                || t instanceof R2dbcNonTransientResourceException
                || t instanceof ConnectException
                || t instanceof TimeoutException
                || t instanceof RetriableException
                || t instanceof KafkaProducerException;
    }

    /**
     * Waits for a handler's answer; an {@link Error} the handler threw (the JVM in trouble, a
     * simulated crash) is rethrown as itself rather than wrapped, so that the container stops as it
     * does for a listener that throws one, instead of retrying or dead-lettering.
     */
    static <T> T blockRethrowingErrors(Mono<T> answer) {
        try {
            return answer.block();
        } catch (RuntimeException e) {
            if (Exceptions.unwrap(e) instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    /** The text of the {@code x-dlt-reason} header: a poison record's reason, else the exception's class only. */
    public static String reason(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof PoisonRecord) {
                return "poison: " + t.getMessage();
            }
        }
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root
                && root.getClass().getName().startsWith("org.springframework.kafka.")) {
            root = root.getCause();
        }
        return "failed repeatedly: " + root.getClass().getName();
    }
}
