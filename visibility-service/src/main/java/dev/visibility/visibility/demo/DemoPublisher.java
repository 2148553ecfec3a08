package dev.visibility.visibility.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.visibility.platform.events.Topics;
import dev.visibility.visibility.config.VisibilityProperties;
import dev.visibility.platform.events.StringProducer;
import dev.visibility.platform.events.TrackingRunCompleted;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.kafka.support.SendResult;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import tools.jackson.databind.ObjectMapper;

/**
 * Publishes the local demo ({@link DemoData}) through {@code tracking.runs} and
 * {@code agentpicks.runs}, exactly as internal producers would, once the service is ready: only
 * when {@code suite.demo.enabled} (the {@code local} profile sets it), the demo project and
 * account are named, and the demo project has no tracking run yet. It also writes the example
 * request paths to {@code suite.demo.examples-file} (every start, the ids never change).
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
        writeExamples(new DemoData(demo.projectId(), demo.accountId(), LocalDate.now(ZoneOffset.UTC),
                visibility.responseRetention()).examples());
        Thread thread = new Thread(this::publishDemo, "visibility-demo");
        thread.setDaemon(true);
        thread.start();
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
            List<CompletableFuture<SendResult<String, String>>> sent = new ArrayList<>();
            for (TrackingRunCompleted run : primary.trackingRuns(demo.days(), true)) {
                sent.add(send(Topics.TRACKING_RUNS, run.projectId().toString(), run));
            }
            int otherRuns = 0;
            if (demo.otherProjectId() != null) {
                DemoData other = new DemoData(demo.otherProjectId(), demo.accountId(), today, visibility.responseRetention());
                for (TrackingRunCompleted run : other.trackingRuns(demo.days(), false)) {
                    sent.add(send(Topics.TRACKING_RUNS, run.projectId().toString(), run));
                    otherRuns++;
                }
            }
            int records = 0;
            for (DemoData.DemoRun run : primary.agentPicksRuns()) {
                for (var record : run.records()) {
                    sent.add(send(Topics.AGENTPICKS_RUNS, run.runId().toString(), record));
                    records++;
                }
            }
            CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
            log.info("Demo data published: {} days of tracking runs for project {}{}, {} agent-picks records",
                    demo.days(), demo.projectId(), otherRuns > 0 ? " and " + demo.otherProjectId() : "", records);
        } catch (Exception e) {
            log.warn("Publishing the demo data failed ({}); the next start tries again", e.toString());
        }
    }

    private CompletableFuture<SendResult<String, String>> send(String topic, String key, Object record) {
        return producer.template().send(topic, key, mapper.writeValueAsString(record));
    }

    private void writeExamples(Map<String, String> examples) {
        Path path = demo.examplesPath();
        if (path == null) {
            return;
        }
        try {
            if (path.getParent() != null) {
                Files.createDirectories(path.getParent());
            }
            // one "key": value pair a line, so the suite can merge it into credentials.json
            String json = "{\n  \"examples\": " + mapper.writeValueAsString(examples) + "\n}\n";
            Path temporary = path.resolveSibling(path.getFileName() + ".tmp");
            Files.writeString(temporary, json);
            Files.move(temporary, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            log.info("Demo example requests written to {}", path);
        } catch (IOException e) {
            log.warn("Could not write the demo example requests to {}: {}", path, e.toString());
        }
    }
}
