package dev.visibility.actions.recommendations;

import java.util.UUID;
import java.util.regex.Pattern;

import dev.visibility.actions.action.ActionContext;
import dev.visibility.actions.config.ActionsProperties;
import dev.visibility.actions.write.WriteBodies;
import dev.visibility.platform.events.Topics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;

/**
 * Consumes {@code recommendations}. Each record is applied in one database transaction (claim of
 * its eventId, rows, history, outbox events); the offset is committed only after this method
 * returns. A failure is thrown, retried with back-off, and finally parked on the dead-letter topic.
 */
@Component
class RecommendationListener {

    private static final Logger log = LoggerFactory.getLogger(RecommendationListener.class);
    private static final Pattern CHANNEL = Pattern.compile("[a-z0-9][a-z0-9_-]{0,39}");

    private final ObjectMapper mapper;
    private final RecommendationIngestion ingestion;
    private final ActionsProperties properties;

    RecommendationListener(ObjectMapper mapper, RecommendationIngestion ingestion, ActionsProperties properties) {
        this.mapper = mapper;
        this.ingestion = ingestion;
        this.properties = properties;
    }

    @KafkaListener(topics = Topics.RECOMMENDATIONS, containerFactory = RecommendationKafkaConfiguration.CONTAINER_FACTORY)
    void onRecommendation(ConsumerRecord<String, String> consumed) {
        RecommendationCandidate candidate;
        try {
            candidate = parse(consumed.value());
        } catch (UnusableRecommendation e) {
            log.warn("Recommendation record {}-{}@{} is unusable ({}); it goes to {}", consumed.topic(),
                    consumed.partition(), consumed.offset(), e.getMessage(), RecommendationKafkaConfiguration.DEAD_LETTER_TOPIC);
            throw e;
        }
        RecommendationIngestion.Outcome outcome = ingestion.ingest(candidate).block(properties.ingestTimeout());
        log.debug("Recommendation {} of project {}: {}", candidate.recommendationId(), candidate.projectId(), outcome);
    }

    RecommendationCandidate parse(String value) {
        if (value == null) {
            throw new UnusableRecommendation("record without a value");
        }
        RecommendationCandidate c;
        try {
            c = mapper.readValue(value, RecommendationCandidate.class);
        } catch (JacksonException e) {
            throw new UnusableRecommendation("not the JSON of a recommendation record");
        }
        validate(c);
        return c;
    }

    static void validate(RecommendationCandidate c) {
        if (c == null || c.eventId() == null || !isUuid(c.projectId()) || blank(c.accountId())
                || blank(c.recommendationId()) || c.recommendationId().length() > 200) {
            throw new UnusableRecommendation("lacks eventId, a UUID projectId, accountId or recommendationId (1-200 characters)");
        }
        if (!RecommendationCandidate.UPSERT.equals(c.kind()) && !RecommendationCandidate.WITHDRAW.equals(c.kind())) {
            throw new UnusableRecommendation("kind must be upsert or withdraw");
        }
        if (c.isWithdraw()) {
            return;
        }
        if (blank(c.title()) || c.title().length() > 200 || blank(c.description()) || c.description().length() > 5000) {
            throw new UnusableRecommendation("an upsert needs a title (1-200) and a description (1-5000 characters)");
        }
        if (c.channels() == null || c.channels().isEmpty() || c.channels().size() > 10
                || c.channels().stream().anyMatch(ch -> ch == null || !CHANNEL.matcher(ch).matches())) {
            throw new UnusableRecommendation("an upsert needs 1 to 10 channel names");
        }
        if (!WriteBodies.PRIORITIES.contains(c.priority())) {
            throw new UnusableRecommendation("priority must be one of " + WriteBodies.PRIORITIES);
        }
        if (c.opportunity() != null && (blank(c.opportunity().family()) || c.opportunity().components() == null
                || c.opportunity().components().reach() == null || c.opportunity().components().gap() == null
                || c.opportunity().components().confidence() == null)) {
            throw new UnusableRecommendation("an opportunity needs a family and its reach, gap and confidence components");
        }
        if (c.evidence() != null && c.evidence().topEvidence() != null) {
            for (ActionContext.TopEvidence e : c.evidence().topEvidence()) {
                if (e == null || e.id() == null) {
                    throw new UnusableRecommendation("every evidence item needs an id");
                }
                if (e.citationLoss() != null && e.citationLoss().cells() != null
                        && e.citationLoss().cells().stream().anyMatch(cell -> cell == null || cell.promptId() == null)) {
                    throw new UnusableRecommendation("every citation-loss cell needs a promptId");
                }
            }
        }
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }

    private static boolean isUuid(String value) {
        if (value == null || value.length() != 36) {
            return false;
        }
        try {
            return UUID.fromString(value).toString().equalsIgnoreCase(value);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
