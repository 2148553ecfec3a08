package dev.visibility.visibility.demo;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.UUID;

import dev.visibility.platform.demo.DemoRecords;
import dev.visibility.platform.events.Topics;
import dev.visibility.visibility.config.VisibilityProperties;
import dev.visibility.platform.events.StringProducer;
import dev.visibility.platform.events.TrackingRunCompleted;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import tools.jackson.databind.ObjectMapper;

/**
 * Publishes the local demo ({@link DemoData}) through {@code tracking.runs} and
 * {@code agentpicks.runs}, exactly as internal producers would, once the service is ready: only
 * when {@code suite.demo.enabled} (the {@code local} profile sets it), the demo project and
 * account are named, and the demo project has no tracking run yet. It also writes the example
 * request paths to {@code suite.demo.examples-file} (every start; the ids are those of the data
 * published on the first start, whatever day it is now: {@link #demoDay}).
 */
@Component
class DemoPublisher {

    private static final Logger log = LoggerFactory.getLogger(DemoPublisher.class);

    private final DemoProperties demo;
    private final VisibilityProperties visibility;
    private final DatabaseClient db;
    private final StringProducer producer;
    private final ObjectMapper mapper;

    DemoPublisher(DemoProperties demo, VisibilityProperties visibility, DatabaseClient db, StringProducer producer,
            ObjectMapper mapper) {
        this.demo = demo;
        this.visibility = visibility;
        this.db = db;
        this.producer = producer;
        this.mapper = mapper;
    }

    @EventListener(ApplicationReadyEvent.class)
    void onReady() {
        if (!demo.configured()) {
            if (demo.enabled()) {
                log.info("Demo data skipped: suite.demo.project-id and suite.demo.account-id are not both set");
            }
            return;
        }
        // written before readiness, so that the suite finds it once the service is ready
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        LocalDate demoDay;
        try {
            demoDay = demoDay(db, demo.projectId(), demo.days(), today);
        } catch (RuntimeException e) {
            log.warn("Could not read when the demo data was published ({}); the E12 examples name today's demo", e.toString());
            demoDay = today;
        }
        DemoRecords.writeExamples(demo.examplesPath(), new DemoData(demo.projectId(), demo.accountId(),
                demoDay, visibility.responseRetention()).examples(), mapper);
        DemoRecords.inBackground("visibility-demo", this::publishDemo);
    }

    /**
     * The day the demo project's data was made on: the demo is published once, on the first start, with
     * tracking runs for the {@code days} days before that day, and the E12 examples name executions of
     * its days; a start on a later day must still name what was published. Today when the project has
     * no tracking run yet (later runs, such as {@code ./suite simulate tracking-run}'s, are never older).
     */
    static LocalDate demoDay(DatabaseClient db, UUID project, int days, LocalDate today) {
        Optional<LocalDate> first = db.sql("SELECT min(captured_on) FROM tracking_runs WHERE project_id = :project")
                .bind("project", project)
                .map(row -> Optional.ofNullable(row.get(0, LocalDate.class)))
                .one()
                .block(Duration.ofSeconds(30));
        return first == null || first.isEmpty() ? today : first.get().plusDays(days);
    }

    private void publishDemo() {
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        DemoData primary = new DemoData(demo.projectId(), demo.accountId(), today, visibility.responseRetention());
        try {
            Boolean hasRuns = db.sql("SELECT EXISTS (SELECT 1 FROM tracking_runs WHERE project_id = :project)")
                    .bind("project", demo.projectId()).map(row -> row.get(0, Boolean.class)).one()
                    .block(Duration.ofSeconds(30));
            if (Boolean.TRUE.equals(hasRuns)) {
                log.info("Demo data skipped: project {} already has tracking runs", demo.projectId());
                return;
            }
            DemoRecords records = new DemoRecords(producer, mapper);
            for (TrackingRunCompleted run : primary.trackingRuns(demo.days(), true)) {
                records.send(Topics.TRACKING_RUNS, run.projectId().toString(), run);
            }
            int otherRuns = 0;
            if (demo.otherProjectId() != null) {
                DemoData other = new DemoData(demo.otherProjectId(), demo.accountId(), today, visibility.responseRetention());
                for (TrackingRunCompleted run : other.trackingRuns(demo.days(), false)) {
                    records.send(Topics.TRACKING_RUNS, run.projectId().toString(), run);
                    otherRuns++;
                }
            }
            int agentPicksRecords = 0;
            for (DemoData.DemoRun run : primary.agentPicksRuns()) {
                for (var record : run.records()) {
                    records.send(Topics.AGENTPICKS_RUNS, run.runId().toString(), record);
                    agentPicksRecords++;
                }
            }
            records.await(Duration.ofSeconds(120));
            log.info("Demo data published: {} days of tracking runs for project {}{}, {} agent-picks records",
                    demo.days(), demo.projectId(), otherRuns > 0 ? " and " + demo.otherProjectId() : "", agentPicksRecords);
        } catch (Exception e) {
            log.warn("Publishing the demo data failed ({}); the next start tries again", e.toString());
        }
    }
}
