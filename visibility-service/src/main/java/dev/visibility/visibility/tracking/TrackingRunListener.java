package dev.visibility.visibility.tracking;

import dev.visibility.platform.events.Topics;
import dev.visibility.platform.events.TrackingRunCompleted;
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
 * Consumes {@code tracking.runs}. Each record is applied in one database transaction (claim of its
 * eventId, the run, its responses, the outbox events); the offset is committed only after this
 * method returns. A failure is thrown, retried with back-off, and finally parked on
 * {@code tracking.runs.DLT}; a record that can never apply goes there at once.
 */
@Component
class TrackingRunListener {

    private static final Logger log = LoggerFactory.getLogger(TrackingRunListener.class);
    static final int MAX_SAMPLES = 5_000;

    private final ObjectMapper mapper;
    private final TrackingRunIngestion ingestion;
    private final VisibilityProperties properties;

    TrackingRunListener(ObjectMapper mapper, TrackingRunIngestion ingestion, VisibilityProperties properties) {
        this.mapper = mapper;
        this.ingestion = ingestion;
        this.properties = properties;
    }

    @KafkaListener(topics = Topics.TRACKING_RUNS, containerFactory = IngestKafkaConfiguration.CONTAINER_FACTORY)
    void onTrackingRun(ConsumerRecord<String, String> consumed) {
        TrackingRunCompleted run;
        try {
            run = parse(consumed.value());
        } catch (UnusableRecord e) {
            log.warn("Tracking run record {}-{}@{} is unusable ({}); it goes to {}", consumed.topic(), consumed.partition(),
                    consumed.offset(), e.getMessage(), IngestKafkaConfiguration.TRACKING_RUNS_DLT);
            throw e;
        }
        TrackingRunIngestion.Outcome outcome = ingestion.ingest(run).block(properties.ingestTimeout());
        log.debug("Tracking run {} of project {}: {}", run.runId(), run.projectId(), outcome);
    }

    TrackingRunCompleted parse(String value) {
        if (value == null) {
            throw new UnusableRecord("record without a value");
        }
        TrackingRunCompleted run;
        try {
            run = mapper.readValue(value, TrackingRunCompleted.class);
        } catch (JacksonException e) {
            throw new UnusableRecord("not the JSON of a tracking run");
        }
        validate(run);
        return run;
    }

    static void validate(TrackingRunCompleted run) {
        if (run == null || run.eventId() == null || run.runId() == null || run.projectId() == null
                || blank(run.accountId()) || tooLong(run.accountId(), 100)) {
            throw new UnusableRecord("lacks eventId, runId, projectId or accountId");
        }
        if (!TrackingRunCompleted.FINAL_STATUSES.contains(run.finalStatus())) {
            throw new UnusableRecord("finalStatus must be one of " + TrackingRunCompleted.FINAL_STATUSES);
        }
        if (run.capturedOn() == null || run.completedAt() == null) {
            throw new UnusableRecord("lacks capturedOn or completedAt");
        }
        if (run.samples() == null || run.samples().size() > MAX_SAMPLES) {
            throw new UnusableRecord("samples must be an array of at most " + MAX_SAMPLES);
        }
        for (TrackingRunCompleted.Sample s : run.samples()) {
            if (s == null || s.executionId() == null || s.promptId() == null || blank(s.platform())
                    || tooLong(s.platform(), 100) || s.completedAt() == null) {
                throw new UnusableRecord("every sample needs executionId, promptId, platform and completedAt");
            }
            if (s.ads() != null && s.ads().stream().anyMatch(a -> a == null)
                    || s.citations() != null && s.citations().stream().anyMatch(c -> c == null)
                    || s.brandMentions() != null && s.brandMentions().stream().anyMatch(m -> m == null || m.count() < 0)) {
                throw new UnusableRecord("ads, citations and brandMentions must not hold nulls or negative counts");
            }
        }
        if (run.samples().stream().map(TrackingRunCompleted.Sample::executionId).distinct().count() != run.samples().size()) {
            throw new UnusableRecord("executionId repeats within the run");
        }
    }
}
