package dev.visibility.platform.db;

import java.time.Duration;

import io.r2dbc.postgresql.api.PostgresqlConnection;
import io.r2dbc.postgresql.api.PostgresqlResult;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.Wrapped;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.transaction.NoTransactionException;
import org.springframework.transaction.reactive.TransactionSynchronization;
import org.springframework.transaction.reactive.TransactionSynchronizationManager;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.util.retry.Retry;

/**
 * Wake-ups for a service's background workers when work is committed to one of their tables, in
 * one of two ways ({@code suite.wakeups.listen}):
 * <ul>
 * <li><b>From the database</b> (the default): one connection per instance, outside the pool,
 * LISTENs on the channel {@code wake.<schema>} of the service's schema. Triggers on work tables
 * ({@code outbox}, for instance) {@code pg_notify} that channel with the table's name as payload;
 * PostgreSQL delivers a notification only when the inserting transaction commits, so a worker
 * woken by it finds the rows. Every replica of the service listens, whichever instance wrote.</li>
 * <li><b>In process</b> ({@code listen=false}): no connection of its own. The writers of work
 * rows call {@link #onCommit(String)} (a reactive transaction) or {@link #onJdbcCommit(String)}
 * (a thread's JDBC transaction), which wake this instance's workers once that transaction has
 * committed. Only what this instance writes wakes it: for a service that runs as one instance
 * (the local suite, where it saves a PostgreSQL process a service). Replicas that share tables
 * would find each other's rows at their idle poll only.</li>
 * </ul>
 * Wake-ups are a hint, never the only way work is found: a worker polls at its idle interval
 * while {@link #listening()} and at its short interval while not (no connection yet, or the
 * connection broke and is being re-established with a back-off of 1 s to 30 s). After each
 * (re)connection every worker is woken once, for what was committed while nobody listened.
 */
public class DatabaseWakeups implements SmartLifecycle {

    /** The payload that wakes every worker. */
    static final String ALL = "*";

    private static final Logger log = LoggerFactory.getLogger(DatabaseWakeups.class);

    private final ConnectionFactory connections;
    private final boolean listen;
    private final Sinks.Many<String> wakeups = Sinks.many().multicast().directBestEffort();
    private volatile boolean listening;
    private volatile String channel;
    /** What start began (the LISTEN loop; in process, nothing but the running state), disposed by stop. */
    private volatile Disposable subscription;

    /** Wake-ups from the database: LISTEN on a connection of its own, made by {@code connections} (a pool is unwrapped). */
    public DatabaseWakeups(ConnectionFactory connections) {
        this(connections instanceof Wrapped<?> wrapped && wrapped.unwrap() instanceof ConnectionFactory inner
                ? inner : connections, true);
    }

    private DatabaseWakeups(ConnectionFactory connections, boolean listen) {
        this.connections = connections;
        this.listen = listen;
        this.listening = !listen;
    }

    /** Wake-ups in process, from {@link #onCommit} and {@link #onJdbcCommit}: no connection of its own. */
    public static DatabaseWakeups inProcess() {
        return new DatabaseWakeups(null, false);
    }

    /** Signals for one work table: each committed insert that notified it, and every (re)connection. */
    public Flux<String> of(String table) {
        return wakeups.asFlux().filter(payload -> payload.equals(table) || payload.equals(ALL));
    }

    /**
     * Whether wake-ups arrive now (else workers poll at their short interval): while the LISTEN
     * connection is up, and always in process.
     */
    public boolean listening() {
        return listening;
    }

    /**
     * In process: wakes this instance's workers of {@code table} once the caller's reactive
     * transaction commits (not when it rolls back), or at once without a transaction (the statement
     * before it has committed by itself). From the database: nothing, the table's trigger notifies.
     * Subscribe to it in the transaction, after the insert that it announces.
     */
    public Mono<Void> onCommit(String table) {
        if (listen) {
            return Mono.empty();
        }
        Mono<Void> now = Mono.fromRunnable(() -> wake(table));
        return TransactionSynchronizationManager.forCurrentTransaction()
                .flatMap(transaction -> {
                    if (!transaction.isSynchronizationActive()) {
                        return now;
                    }
                    transaction.registerSynchronization(new TransactionSynchronization() {
                        @Override
                        public Mono<Void> afterCommit() {
                            return now;
                        }
                    });
                    return Mono.<Void>empty();
                })
                .onErrorResume(NoTransactionException.class, e -> now);
    }

    /**
     * {@link #onCommit} for a JDBC transaction bound to the calling thread (Spring's
     * {@code DataSourceTransactionManager}): after it commits, or at once outside one.
     */
    public void onJdbcCommit(String table) {
        if (listen) {
            return;
        }
        if (org.springframework.transaction.support.TransactionSynchronizationManager.isSynchronizationActive()) {
            org.springframework.transaction.support.TransactionSynchronizationManager.registerSynchronization(
                    new org.springframework.transaction.support.TransactionSynchronization() {
                        @Override
                        public void afterCommit() {
                            wake(table);
                        }
                    });
        } else {
            wake(table);
        }
    }

    /** One emission at a time: commits end on many threads, and the sink drops an emission that overlaps another. */
    private void wake(String payload) {
        synchronized (wakeups) {
            wakeups.tryEmitNext(payload);
        }
    }

    /** The channel listened on, once connected: {@code wake.<schema>}; null in process. */
    public String channel() {
        return channel;
    }

    @Override
    public void start() {
        if (!listen) {
            subscription = Disposables.single();
            return;
        }
        subscription = Flux.usingWhen(connections.create(), this::listen, Connection::close)
                // the notification stream ends when the connection does: reconnect as after an error
                .concatWith(Mono.error(() -> new IllegalStateException("the listening connection closed")))
                .doOnError(e -> {
                    if (listening) {
                        log.warn("Database wake-ups lost ({}); polling until the connection is back", e.toString());
                    }
                    listening = false;
                })
                .retryWhen(Retry.backoff(Long.MAX_VALUE, Duration.ofSeconds(1)).maxBackoff(Duration.ofSeconds(30))
                        .transientErrors(true))
                .subscribe(this::wake,
                        e -> log.warn("Database wake-ups stopped: {}", e.toString()));
    }

    private Flux<String> listen(Connection connection) {
        if (!(connection instanceof PostgresqlConnection postgres)) {
            log.info("Database wake-ups need PostgreSQL; workers poll at their short interval");
            return Flux.never();
        }
        return postgres.createStatement("SELECT 'wake.' || current_schema()").execute()
                .flatMap(result -> result.map(row -> row.get(0, String.class)))
                .single()
                .flatMap(name -> postgres.createStatement("LISTEN \"" + name.replace("\"", "\"\"") + "\"").execute()
                        .flatMap(PostgresqlResult::getRowsUpdated).then().thenReturn(name))
                .flatMapMany(name -> {
                    channel = name;
                    listening = true;
                    log.debug("Listening for wake-ups on {}", name);
                    return Flux.just(ALL).concatWith(postgres.getNotifications()
                            .filter(n -> name.equals(n.getName()))
                            .map(n -> n.getParameter() == null ? ALL : n.getParameter()));
                });
    }

    @Override
    public void stop() {
        listening = !listen;
        Disposable current = subscription;
        if (current != null) {
            current.dispose();
        }
    }

    @Override
    public boolean isRunning() {
        Disposable current = subscription;
        return current != null && !current.isDisposed();
    }

    @Override
    public int getPhase() {
        // up before the workers it wakes (default phase), down after them
        return Integer.MIN_VALUE + 1000;
    }
}
