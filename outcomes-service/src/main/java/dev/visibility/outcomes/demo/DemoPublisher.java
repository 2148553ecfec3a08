package dev.visibility.outcomes.demo;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import dev.visibility.platform.events.OutcomeMeasured;
import dev.visibility.platform.events.StringProducer;
import dev.visibility.platform.demo.DemoRecords;
import dev.visibility.platform.events.Topics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import tools.jackson.databind.ObjectMapper;

/**
 * Publishes the local demo ({@link DemoMeasurements}) through {@code outcomes.measurements}, as the
 * measurement jobs would, once the service is ready: only when {@code suite.demo.enabled} (the
 * {@code local} profile sets it) and the demo project is named, and only while the demo project has
 * no intervention. It first waits (at most {@code suite.demo.action-wait}) for the demo project's
 * actions to arrive on {@code public.events} from actions-service's own demo, so that the
 * interventions ship real actions and the ledger shows their titles. The second demo project gets
 * no interventions: its E7 answer is the {@code emptyState}.
 */
@Component
class DemoPublisher {

    private static final Logger log = LoggerFactory.getLogger(DemoPublisher.class);
    private static final int WANTED_ACTIONS = 150;
    private static final long LOOK_EVERY_MILLIS = 500;
    /** Looks that must find the count unchanged: a second at {@link #LOOK_EVERY_MILLIS}. */
    private static final int STABLE_LOOKS = 2;

    private final DemoProperties demo;
    private final DatabaseClient db;
    private final StringProducer producer;
    private final ObjectMapper mapper;

    DemoPublisher(DemoProperties demo, DatabaseClient db, StringProducer producer, ObjectMapper mapper) {
        this.demo = demo;
        this.db = db;
        this.producer = producer;
        this.mapper = mapper;
    }

    @EventListener(ApplicationReadyEvent.class)
    void onReady() {
        if (!demo.configured()) {
            if (demo.enabled()) {
                log.info("Demo measurements skipped: suite.demo.project-id is not set");
            }
            return;
        }
        DemoRecords.inBackground("outcomes-demo", this::publishDemo);
    }

    private void publishDemo() {
        UUID project = demo.projectId();
        try {
            if (count("SELECT count(*) FROM interventions WHERE project_id = :project", project) > 0) {
                log.info("Demo measurements skipped: project {} already has interventions", project);
                return;
            }
            List<UUID> actions = actions(project);
            DemoRecords sent = new DemoRecords(producer, mapper);
            List<OutcomeMeasured> records = new DemoMeasurements(project, Instant.now()).records(demo.interventions(), actions);
            for (OutcomeMeasured record : records) {
                sent.send(Topics.OUTCOMES_MEASUREMENTS, project.toString(), record);
            }
            sent.await(Duration.ofSeconds(120));
            log.info("Demo measurements published: {} interventions ({} records) for project {} over {} actions",
                    demo.interventions(), records.size(), project, actions.isEmpty() ? "generated" : actions.size());
        } catch (Exception e) {
            log.warn("Publishing the demo measurements failed ({}); the next start tries again", e.toString());
        }
    }

    /**
     * The demo project's actions, in a stable order, once there is one for every intervention, or once enough have
     * arrived and their count held for a second (or the wait is over). Looked at every half second: on a first
     * {@code ./suite up} this wait is on the way to "the suite is up". With actions-service's 300 demo actions the
     * measurements go out while the last actions still arrive, about 1.5 s sooner than after a count held
     * (bench/ServiceStart.md, session 44).
     */
    private List<UUID> actions(UUID project) throws InterruptedException {
        long deadline = System.nanoTime() + demo.actionWait().toNanos();
        long wanted = Math.min(WANTED_ACTIONS, demo.interventions());
        long previous = -1;
        int alike = 0;
        while (System.nanoTime() < deadline) {
            long now = count("SELECT count(*) FROM actions WHERE project_id = :project AND title IS NOT NULL", project);
            alike = now == previous ? alike + 1 : 0;
            if (now >= demo.interventions() || now >= wanted && alike >= STABLE_LOOKS) {
                break;
            }
            previous = now;
            Thread.sleep(LOOK_EVERY_MILLIS);
        }
        return db.sql("SELECT action_id FROM actions WHERE project_id = :project AND title IS NOT NULL ORDER BY action_id")
                .bind("project", project).map(row -> row.get(0, UUID.class)).all().collectList()
                .block(Duration.ofSeconds(30));
    }

    private long count(String sql, UUID project) {
        Long n = db.sql(sql).bind("project", project).map(row -> ((Number) row.get(0)).longValue()).one()
                .block(Duration.ofSeconds(30));
        return n == null ? 0 : n;
    }
}
