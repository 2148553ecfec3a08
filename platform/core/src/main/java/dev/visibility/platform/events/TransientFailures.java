package dev.visibility.platform.events;

import java.net.ConnectException;
import java.util.Set;
import java.util.concurrent.TimeoutException;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.transaction.CannotCreateTransactionException;

/**
 * Which failures of a listener are the failure of something it depends on, not of the record:
 * the database or the broker unavailable, a connection refused or timed out. Such a record is
 * retried until it succeeds (issue 16: a database outage must not turn facts into dead letters).
 */
public final class TransientFailures {

    /** Failures recognised by class name, so that the platform needs none of their libraries. */
    private static final Set<String> NAMES = Set.of(
            "io.r2dbc.spi.R2dbcTransientResourceException",
            "io.r2dbc.spi.R2dbcNonTransientResourceException",
            "io.r2dbc.spi.R2dbcTimeoutException",
            "io.r2dbc.postgresql.PostgresqlConnectionFactory$PostgresConnectionException",
            "io.r2dbc.postgresql.client.ReactorNettyClient$PostgresConnectionClosedException",
            "org.apache.kafka.common.errors.RetriableException",
            "org.apache.kafka.common.errors.TimeoutException",
            "io.netty.channel.ConnectTimeoutException",
            "reactor.netty.channel.AbortedException",
            "io.r2dbc.pool.PoolAcquireTimeoutException");

    private TransientFailures() {
    }

    public static boolean isTransient(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof DataAccessResourceFailureException || t instanceof TransientDataAccessException
                    || t instanceof CannotCreateTransactionException || t instanceof ConnectException
                    || t instanceof TimeoutException) {
                return true;
            }
            for (Class<?> type = t.getClass(); type != null; type = type.getSuperclass()) {
                if (NAMES.contains(type.getName())) {
                    return true;
                }
            }
        }
        return false;
    }
}
