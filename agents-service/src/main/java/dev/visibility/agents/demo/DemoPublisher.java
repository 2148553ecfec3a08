package dev.visibility.agents.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.visibility.platform.events.AgentRunRecorded;
import dev.visibility.platform.events.AssistantThreadRecorded;
import dev.visibility.platform.events.StringProducer;
import dev.visibility.platform.events.Topics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.kafka.support.SendResult;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import tools.jackson.databind.ObjectMapper;

/**
 * Publishes the local demo ({@link DemoData}) through {@code agents.runs} and {@code agents.threads},
 * exactly as the agent runner and the assistant would, once the service is ready: only when
 * {@code suite.demo.enabled} (the {@code local} profile sets it), the demo project is named and it
 * has no run yet. It also writes the example request paths to {@code suite.demo.examples-file}
 * (every start; the ids derive from the project id and never change).
 */
@Component
class DemoPublisher {

    private static final Logger log = LoggerFactory.getLogger(DemoPublisher.class);

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
                log.info("Demo data skipped: suite.demo.project-id is not set");
            }
            return;
        }
        writeExamples(new DemoData(demo.projectId(), demo.memberId(), Instant.now()).examples());
        Thread thread = new Thread(this::publishDemo, "agents-demo");
        thread.setDaemon(true);
        thread.start();
    }

    private void publishDemo() {
        DemoData data = new DemoData(demo.projectId(), demo.memberId(), Instant.now());
        try {
            Boolean hasRuns = db.sql("SELECT EXISTS (SELECT 1 FROM agent_runs WHERE project_id = :project)")
                    .bind("project", demo.projectId()).map(row -> row.get(0, Boolean.class)).one()
                    .block(Duration.ofSeconds(30));
            if (Boolean.TRUE.equals(hasRuns)) {
                log.info("Demo data skipped: project {} already has managed-agent runs", demo.projectId());
                return;
            }
            String key = demo.projectId().toString();
            List<CompletableFuture<SendResult<String, String>>> sent = new ArrayList<>();
            // threads first: the runs are what the next start checks, so they go last
            List<AssistantThreadRecorded> threads = data.threads();
            for (AssistantThreadRecorded record : threads) {
                sent.add(producer.template().send(Topics.AGENTS_THREADS, key, mapper.writeValueAsString(record)));
            }
            List<AgentRunRecorded> runs = data.runs();
            for (AgentRunRecorded record : runs) {
                sent.add(producer.template().send(Topics.AGENTS_RUNS, key, mapper.writeValueAsString(record)));
            }
            CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
            log.info("Demo data published for project {}: {} run records, {} thread records{}", demo.projectId(), runs.size(),
                    threads.size(), demo.memberId() == null ? " (no threads: suite.demo.member-id is not set)" : "");
        } catch (Exception e) {
            log.warn("Publishing the demo data failed ({}); the next start tries again", e.toString());
        }
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
