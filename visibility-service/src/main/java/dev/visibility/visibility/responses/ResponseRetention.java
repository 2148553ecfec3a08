package dev.visibility.visibility.responses;

import dev.visibility.visibility.config.VisibilityProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Enforces answer retention: answer texts past their {@code retain_until} are cleared from the
 * database (reads already hide them from the moment they expire). The rest of the row, ads
 * included, stays as evidence.
 */
@Component
class ResponseRetention {

    private static final Logger log = LoggerFactory.getLogger(ResponseRetention.class);

    private final DatabaseClient db;
    private final VisibilityProperties properties;

    ResponseRetention(DatabaseClient db, VisibilityProperties properties) {
        this.db = db;
        this.properties = properties;
    }

    @Scheduled(initialDelayString = "${suite.visibility.retention-sweep:PT10M}",
            fixedDelayString = "${suite.visibility.retention-sweep:PT10M}")
    void clearExpiredAnswers() {
        try {
            Long cleared = db.sql("UPDATE responses SET answer_text = NULL WHERE answer_text IS NOT NULL AND retain_until <= now()")
                    .fetch().rowsUpdated().block(properties.ingestTimeout());
            if (cleared != null && cleared > 0) {
                log.info("Cleared {} answer texts past their retention", cleared);
            }
        } catch (RuntimeException e) {
            log.warn("Clearing expired answer texts failed; the next sweep tries again: {}", e.toString());
        }
    }
}
