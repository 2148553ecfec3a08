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
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.util.retry.Retry;

/**
 * Wake-ups from the database: one connection per instance, outside the pool, that LISTENs on the
 * channel {@code wake.<schema>} of the service's schema. Triggers on work tables
 * ({@code outbox}, for instance) {@code pg_notify} that channel with the table's name as payload;
 * PostgreSQL delivers a notification only when the inserting transaction commits, so a worker
 * woken by it finds the rows. Every replica of the service listens, whichever instance wrote.
 * <p>
 * Notifications are a hint, never the only way work is found: a worker polls at its idle
 * interval while {@link #listening()} and at its short interval while not (no connection yet,
 * or the connection broke and is being re-established with a back-off of 1 s to 30 s). After each
 * (re)connection every worker is woken once, for what was committed while nobody listened.
 */
public class DatabaseWakeups implements SmartLifecycle {

    /** The payload that wakes every worker. */
    static final String ALL = "*";

    private static final Logger log = LoggerFactory.getLogger(DatabaseWakeups.class);

    private final ConnectionFactory connections;
    private final Sinks.Many<String> wakeups = Sinks.many().multicast().directBestEffort();
    private volatile boolean listening;
    private volatile String channel;
    private volatile Disposable subscription;

    /** @param connections the service's connection factory; a pool is unwrapped, the connection is not borrowed */
    public DatabaseWakeups(ConnectionFactory connections) {
        this.connections = connections instanceof Wrapped<?> wrapped && wrapped.unwrap() instanceof ConnectionFactory inner
                ? inner : connections;
    }

    /** Signals for one work table: each committed insert that notified it, and every (re)connection. */
    public Flux<String> of(String table) {
        return wakeups.asFlux().filter(payload -> payload.equals(table) || payload.equals(ALL));
    }

    /** Whether notifications are being received now (else workers poll at their short interval). */
    public boolean listening() {
        return listening;
    }

    /** The channel listened on, once connected: {@code wake.<schema>}. */
    public String channel() {
        return channel;
    }

    @Override
    public void start() {
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
                .subscribe(payload -> wakeups.tryEmitNext(payload),
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
        listening = false;
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
