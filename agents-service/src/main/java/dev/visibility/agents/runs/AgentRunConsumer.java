package dev.visibility.agents.runs;

import dev.visibility.platform.consumer.TopicConsumer;
import dev.visibility.platform.events.AgentRunRecorded;
import dev.visibility.platform.events.Topics;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Consumes {@code agents.runs} through the platform's {@link TopicConsumer}: the platform reads and
 * validates each record (Bean Validation, then {@link AgentRunRecorded#validate()}), claims its
 * eventId in the handler's transaction, and sends a record that can never apply to
 * {@code agents.runs.DLT} with its reason.
 */
@Configuration(proxyBeanMethods = false)
class AgentRunConsumer {

    @Bean
    TopicConsumer<AgentRunRecorded> agentRunsConsumer(AgentRunIngestion ingestion) {
        return TopicConsumer.of(Topics.AGENTS_RUNS, AgentRunRecorded.class, ingestion::apply)
                .idempotent("agents-service.agents-runs");
    }
}
