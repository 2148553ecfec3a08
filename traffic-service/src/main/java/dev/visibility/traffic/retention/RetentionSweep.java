package dev.visibility.traffic.retention;

import java.time.Clock;
import java.time.LocalDate;

import dev.visibility.platform.db.WakeableLoop;
import dev.visibility.traffic.config.TrafficProperties;
import dev.visibility.traffic.notfound.NotFoundMaterializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Removes what no window needs any more, once at start and every {@code suite.traffic.retention-sweep}:
 * rollup days and session rows older than the longest E4 window (90 days, with a margin), 404
 * aggregates older than E11's current and prior windows, and hostnames a source has not sent for
 * as long. A session whose last day is removed is a new session when it comes back, which is what
 * the windows that can still see it expect.
 */
@Component
class RetentionSweep implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(RetentionSweep.class);
    static final int KEEP_DAYS = 92;
    static final int KEEP_NOT_FOUND_DAYS = 2 * NotFoundMaterializer.WINDOW_DAYS + 1;

    private final DatabaseClient db;
    private final Clock clock;
    private final TrafficProperties properties;
    private Disposable loop;

    RetentionSweep(DatabaseClient db, Clock clock, TrafficProperties properties) {
        this.db = db;
        this.clock = clock;
        this.properties = properties;
    }

    @EventListener(ApplicationReadyEvent.class)
    void start() {
        loop = WakeableLoop.periodic(properties.retentionSweep(), Schedulers.boundedElastic())
                .start(() -> sweep().thenReturn(false), e -> log.warn("The retention sweep failed: {}", e.toString()));
    }

    @Override
    public void destroy() {
        if (loop != null) {
            loop.dispose();
        }
    }

    Mono<Long> sweep() {
        LocalDate today = LocalDate.now(clock);
        LocalDate cutoff = today.minusDays(KEEP_DAYS);
        Mono<Long> days = db.sql("DELETE FROM traffic_days WHERE day < :cutoff").bind("cutoff", cutoff).fetch().rowsUpdated();
        Mono<Long> sessions = db.sql("DELETE FROM traffic_sessions WHERE last_day < :cutoff").bind("cutoff", cutoff)
                .fetch().rowsUpdated();
        Mono<Long> hostnames = db.sql("DELETE FROM sensor_hostnames WHERE last_accepted_at < :cutoff")
                .bind("cutoff", cutoff.atStartOfDay(java.time.ZoneOffset.UTC).toInstant()).fetch().rowsUpdated();
        Mono<Long> notFound = db.sql("DELETE FROM not_found_days WHERE day < :cutoff")
                .bind("cutoff", today.minusDays(KEEP_NOT_FOUND_DAYS)).fetch().rowsUpdated();
        return Mono.zip(days, sessions, hostnames, notFound).map(t -> {
            long removed = t.getT1() + t.getT2() + t.getT3() + t.getT4();
            if (removed > 0) {
                log.info("Retention: removed {} rollup days, {} session rows, {} hostnames, {} 404 aggregates",
                        t.getT1(), t.getT2(), t.getT3(), t.getT4());
            }
            return removed;
        });
    }
}
