package dev.visibility.visibility.agentpicks;

import dev.visibility.platform.events.AgentPicksRunRecorded;
import dev.visibility.platform.events.Topics;
import dev.visibility.visibility.config.VisibilityProperties;
import dev.visibility.visibility.ingest.IngestKafkaConfiguration;
import dev.visibility.visibility.ingest.UnusableRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;

import static dev.visibility.visibility.ingest.Checks.blank;
import static dev.visibility.visibility.ingest.Checks.tooLong;

/**
 * Consumes {@code agentpicks.runs}. Each record is applied in one database transaction (claim of
 * its eventId, test, run, evidence); the offset is committed only after this method returns. A
 * failure is retried with back-off and finally parked on {@code agentpicks.runs.DLT}; a record
 * that can never apply goes there at once.
 */
@Component
class AgentPicksRunListener {

    private static final Logger log = LoggerFactory.getLogger(AgentPicksRunListener.class);
    static final int MAX_EVIDENCE = 2_000;

    private final ObjectMapper mapper;
    private final AgentPicksIngestion ingestion;
    private final VisibilityProperties properties;

    AgentPicksRunListener(ObjectMapper mapper, AgentPicksIngestion ingestion, VisibilityProperties properties) {
        this.mapper = mapper;
        this.ingestion = ingestion;
        this.properties = properties;
    }

    @KafkaListener(topics = Topics.AGENTPICKS_RUNS, containerFactory = IngestKafkaConfiguration.CONTAINER_FACTORY)
    void onAgentPicksRun(ConsumerRecord<String, String> consumed) {
        AgentPicksRunRecorded record;
        try {
            record = parse(consumed.value());
        } catch (UnusableRecord e) {
            log.warn("Agent-picks record {}-{}@{} is unusable ({}); it goes to {}", consumed.topic(), consumed.partition(),
                    consumed.offset(), e.getMessage(), IngestKafkaConfiguration.AGENTPICKS_RUNS_DLT);
            throw e;
        }
        AgentPicksIngestion.Outcome outcome;
        try {
            outcome = ingestion.ingest(record).block(properties.ingestTimeout());
        } catch (UnusableRecord e) {
            log.warn("Agent-picks record {}-{}@{} cannot apply ({}); it goes to {}", consumed.topic(), consumed.partition(),
                    consumed.offset(), e.getMessage(), IngestKafkaConfiguration.AGENTPICKS_RUNS_DLT);
            throw e;
        }
        log.debug("Agent-picks run {} revision {}: {}", record.runId(), record.revision(), outcome);
    }

    AgentPicksRunRecorded parse(String value) {
        if (value == null) {
            throw new UnusableRecord("record without a value");
        }
        AgentPicksRunRecorded record;
        try {
            record = mapper.readValue(value, AgentPicksRunRecorded.class);
        } catch (JacksonException e) {
            throw new UnusableRecord("not the JSON of an agent-picks run record");
        }
        validate(record);
        return record;
    }

    static void validate(AgentPicksRunRecorded r) {
        if (r == null || r.eventId() == null || r.runId() == null || r.testId() == null || r.projectId() == null
                || blank(r.accountId()) || tooLong(r.accountId(), 100) || r.occurredAt() == null || r.revision() < 0) {
            throw new UnusableRecord("lacks eventId, runId, testId, projectId, accountId, occurredAt or a revision >= 0");
        }
        if (r.test() == null || blank(r.test().kind()) || tooLong(r.test().kind(), 100)
                || !AgentPicksRunRecorded.STATUSES.contains(r.test().status())) {
            throw new UnusableRecord("test needs a kind and a status of " + AgentPicksRunRecorded.STATUSES);
        }
        AgentPicksRunRecorded.Run run = r.run();
        if (run == null || blank(run.agent()) || blank(run.model()) || tooLong(run.agent(), 200) || tooLong(run.model(), 200)
                || run.repetition() < 0 || !AgentPicksRunRecorded.STATUSES.contains(run.status()) || run.createdAt() == null
                || run.wallMs() != null && run.wallMs() < 0) {
            throw new UnusableRecord("run needs agent, model, repetition >= 0, createdAt and a status of "
                    + AgentPicksRunRecorded.STATUSES);
        }
        AgentPicksRunRecorded.Context context = r.context();
        if (context != null && context.environment() != null) {
            AgentPicksRunRecorded.Environment env = context.environment();
            if (blank(env.id()) || blank(env.slug()) || blank(env.name())) {
                throw new UnusableRecord("an environment needs id, slug and name");
            }
        }
        AgentPicksRunRecorded.Classification pick = r.classification();
        if (pick != null && (blank(pick.outcome()) || blank(pick.classifierVersion()))) {
            throw new UnusableRecord("a classification needs outcome and classifierVersion");
        }
        if (pick != null && (pick.toolPackages() != null && pick.toolPackages().contains(null)
                || pick.otherTools() != null && pick.otherTools().contains(null))) {
            throw new UnusableRecord("toolPackages and otherTools must not hold nulls");
        }
        if (r.evidence() != null) {
            if (r.evidence().size() > MAX_EVIDENCE) {
                throw new UnusableRecord("at most " + MAX_EVIDENCE + " evidence items per record");
            }
            for (AgentPicksRunRecorded.Evidence e : r.evidence()) {
                if (e == null || e.id() == null || e.seq() < 0 || e.recordedAt() == null
                        || !AgentPicksRunRecorded.EVIDENCE_KINDS.contains(e.kind())
                        || e.queries() != null && e.queries().contains(null)
                        || e.packages() != null && e.packages().contains(null)) {
                    throw new UnusableRecord("every evidence item needs id, seq >= 0, recordedAt and a kind of "
                            + AgentPicksRunRecorded.EVIDENCE_KINDS);
                }
            }
        }
    }
}
