package dev.visibility.visibility.agentpicks;

import dev.visibility.platform.consumer.TopicConsumer;
import dev.visibility.platform.events.AgentPicksRunRecorded;
import dev.visibility.platform.events.Topics;
import dev.visibility.visibility.config.VisibilityProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Consumes {@code agentpicks.runs} through the platform's {@link TopicConsumer}: the platform reads
 * and validates each record ({@link AgentPicksRunRecorded#validate()}); {@link AgentPicksIngestion}
 * applies it in one database transaction (claim of its eventId, test, run, evidence), and the offset
 * is committed after that. A record that can never apply (among them a run or test claimed by
 * another project) goes to {@code agentpicks.runs.DLT} at once; while the database is unavailable
 * the record is retried, never dead-lettered.
 */
@Configuration(proxyBeanMethods = false)
class AgentPicksRunConsumer {

    @Bean
    TopicConsumer<AgentPicksRunRecorded> agentPicksRunsConsumer(AgentPicksIngestion ingestion,
            VisibilityProperties properties) {
        return TopicConsumer.of(Topics.AGENTPICKS_RUNS, AgentPicksRunRecorded.class, ingestion::ingest)
                .timeout(properties.ingestTimeout())
                // records carry evidence batches: fewer per poll keeps a poll well inside max.poll.interval
                .maxPollRecords(50);
    }
}
