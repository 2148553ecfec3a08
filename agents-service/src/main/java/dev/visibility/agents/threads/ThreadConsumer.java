package dev.visibility.agents.threads;

import dev.visibility.platform.consumer.TopicConsumer;
import dev.visibility.platform.events.AssistantThreadRecorded;
import dev.visibility.platform.events.Topics;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Consumes {@code agents.threads} through the platform's {@link TopicConsumer}: validated records
 * ({@link AssistantThreadRecorded#validate()}) are applied by {@link ThreadIngestion} in one
 * transaction with the claim of their eventId; a record that can never apply goes to
 * {@code agents.threads.DLT} with its reason.
 */
@Configuration(proxyBeanMethods = false)
class ThreadConsumer {

    @Bean
    TopicConsumer<AssistantThreadRecorded> agentsThreadsConsumer(ThreadIngestion ingestion) {
        return TopicConsumer.of(Topics.AGENTS_THREADS, AssistantThreadRecorded.class, ingestion::apply)
                .idempotent("agents-service.agents-threads");
    }
}
