package dev.visibility.agents.demo;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.visibility.platform.events.AgentRunRecorded;
import dev.visibility.platform.events.AssistantThreadRecorded;
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
        DemoRecords.writeExamples(demo.examplesPath(), new DemoData(demo.projectId(), demo.memberId(), Instant.now()).examples(),
                mapper);
        DemoRecords.inBackground("agents-demo", this::publishDemo);
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
            DemoRecords records = new DemoRecords(producer, mapper);
            // threads first: the runs are what the next start checks, so they go last
            List<AssistantThreadRecorded> threads = data.threads();
            for (AssistantThreadRecorded record : threads) {
                records.send(Topics.AGENTS_THREADS, key, record);
            }
            List<AgentRunRecorded> runs = data.runs();
            for (AgentRunRecorded record : runs) {
                records.send(Topics.AGENTS_RUNS, key, record);
            }
            records.await(Duration.ofSeconds(120));
            log.info("Demo data published for project {}: {} run records, {} thread records{}", demo.projectId(), runs.size(),
                    threads.size(), demo.memberId() == null ? " (no threads: suite.demo.member-id is not set)" : "");
        } catch (Exception e) {
            log.warn("Publishing the demo data failed ({}); the next start tries again", e.toString());
        }
    }
}
