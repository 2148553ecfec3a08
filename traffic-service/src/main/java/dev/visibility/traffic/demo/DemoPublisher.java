package dev.visibility.traffic.demo;

import java.time.Clock;
import java.time.Duration;
import java.util.UUID;

import dev.visibility.platform.events.StringProducer;
import dev.visibility.platform.demo.DemoRecords;
import dev.visibility.platform.events.Topics;
import dev.visibility.traffic.notfound.NotFoundMaterializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import tools.jackson.databind.ObjectMapper;

/**
 * Publishes the local demo ({@link DemoData}) through {@code traffic.config}, {@code traffic.hits}
 * and {@code adoption.metrics}, as the settings, sensors and pollers would, once the service is
 * ready: only when {@code suite.demo.enabled} (the {@code local} profile sets it), the demo project
 * is named and it has no traffic configuration yet. It writes the example request paths to
 * {@code suite.demo.examples-file} on every start, and materializes E11 once the hits are in.
 */
@Component
class DemoPublisher {

    private static final Logger log = LoggerFactory.getLogger(DemoPublisher.class);

    private final DemoProperties demo;
    private final DatabaseClient db;
    private final StringProducer producer;
    private final ObjectMapper mapper;
    private final Clock clock;
    private final NotFoundMaterializer materializer;

    DemoPublisher(DemoProperties demo, DatabaseClient db, StringProducer producer, ObjectMapper mapper, Clock clock,
            NotFoundMaterializer materializer) {
        this.demo = demo;
        this.db = db;
        this.producer = producer;
        this.mapper = mapper;
        this.clock = clock;
        this.materializer = materializer;
    }

    @EventListener(ApplicationReadyEvent.class)
    void onReady() {
        if (!demo.configured()) {
            if (demo.enabled()) {
                log.info("Demo data skipped: suite.demo.project-id is not set");
            }
            return;
        }
        DemoRecords.writeExamples(demo.examplesPath(), new DemoData(demo.projectId(), clock.instant()).examples(), mapper);
        DemoRecords.inBackground("traffic-demo", this::publishDemo);
    }

    private void publishDemo() {
        try {
            Boolean configured = db.sql("SELECT EXISTS (SELECT 1 FROM project_config WHERE project_id = :project)")
                    .bind("project", demo.projectId()).map(row -> row.get(0, Boolean.class)).one()
                    .block(Duration.ofSeconds(30));
            if (Boolean.TRUE.equals(configured)) {
                log.info("Demo data skipped: project {} already has a traffic configuration", demo.projectId());
                return;
            }
            int hits = publish(demo.projectId(), true);
            if (demo.otherProjectId() != null) {
                hits += publish(demo.otherProjectId(), false);
            }
            log.info("Demo data published: {} days of traffic ({} hits), configuration and adoption samples for project {}{}",
                    demo.days(), hits, demo.projectId(), demo.otherProjectId() != null ? " and " + demo.otherProjectId() : "");
            awaitConsumedThenMaterialize(hits);
        } catch (Exception e) {
            log.warn("Publishing the demo data failed ({}); the next start tries again", e.toString());
        }
    }

    private int publish(UUID project, boolean primary) throws Exception {
        DemoData data = new DemoData(project, clock.instant());
        String key = project.toString();
        DemoRecords records = new DemoRecords(producer, mapper).send(Topics.TRAFFIC_CONFIG, key, data.configuration(primary));
        var hits = data.hits(demo.days(), primary);
        for (var hit : hits) {
            records.send(Topics.TRAFFIC_HITS, key, hit);
        }
        for (var sample : data.adoption(demo.days(), primary)) {
            records.send(Topics.ADOPTION_METRICS, key, sample);
        }
        records.await(Duration.ofSeconds(180));
        return hits.size();
    }

    /** E11 materializes at start, before the demo's 404s are in: once they are, once more. */
    private void awaitConsumedThenMaterialize(int hits) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        while (System.nanoTime() < deadline) {
            Long applied = db.sql("SELECT coalesce(sum(total_events), 0)::bigint FROM traffic_days WHERE hostname = '' AND project_id = ANY(:projects)")
                    .bind("projects", demo.otherProjectId() == null ? new UUID[] {demo.projectId()}
                            : new UUID[] {demo.projectId(), demo.otherProjectId()})
                    .map(row -> row.get(0, Long.class)).one().block(Duration.ofSeconds(30));
            if (applied != null && applied >= hits) {
                break;
            }
            Thread.sleep(500);
        }
        materializer.materializeAll().block(Duration.ofMinutes(2));
    }
}
