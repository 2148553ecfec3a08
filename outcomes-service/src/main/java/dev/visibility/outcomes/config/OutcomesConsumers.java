package dev.visibility.outcomes.config;

import dev.visibility.outcomes.actions.ActionEventRecord;
import dev.visibility.outcomes.actions.ActionEvents;
import dev.visibility.outcomes.ingest.MeasurementIngestion;
import dev.visibility.platform.consumer.TopicConsumer;
import dev.visibility.platform.events.OutcomeMeasured;
import dev.visibility.platform.events.Topics;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The service's two inputs, both through the platform's {@link TopicConsumer} (validation, poison
 * records to {@code <topic>.DLT}, transient failures retried, eventId claimed in the handler's
 * transaction): measured windows on {@code outcomes.measurements} (a poll at a time), and the action events on
 * {@code public.events} for titles and completion times.
 */
@Configuration(proxyBeanMethods = false)
class OutcomesConsumers {

    @Bean
    TopicConsumer<OutcomeMeasured> measurementsConsumer(MeasurementIngestion ingestion, OutcomesProperties properties) {
        // a poll's measurements in one transaction (one claim statement, two reads, one write
        // statement, one commit), folded in order: the measurement jobs publish windows in bulk
        return TopicConsumer.batch(Topics.OUTCOMES_MEASUREMENTS, OutcomeMeasured.class, ingestion::ingestAll)
                .idempotent("outcomes-service.outcomes-measurements")
                .maxPollRecords(properties.measurementsPollRecords())
                .timeout(properties.ingestTimeout());
    }

    @Bean
    TopicConsumer<ActionEventRecord> actionEventsConsumer(ActionEvents actions, OutcomesProperties properties) {
        return TopicConsumer.of(Topics.PUBLIC_EVENTS, ActionEventRecord.class, actions::apply)
                .idempotent("outcomes-service.public-events")
                .timeout(properties.ingestTimeout());
    }
}
