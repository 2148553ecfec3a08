package dev.visibility.platform.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import dev.visibility.platform.testapp.TestApplication;
import dev.visibility.platform.testing.TestKafka;
import dev.visibility.platform.tracing.TraceContexts;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;

/**
 * {@link StringProducer}'s two templates on the shared broker: {@code template()} sends each record in a
 * producer span of the current trace (its {@code traceparent} header carries that trace id);
 * {@code unobserved()} sends the same bytes through the same producer without one (no header).
 */
@SpringBootTest(classes = TestApplication.class)
class StringProducerIntegrationTest {

    private static final Duration WITHIN = Duration.ofSeconds(30);

    @Autowired
    KafkaProperties kafkaProperties;
    @Autowired
    ApplicationContext context;
    @Autowired
    ObservationRegistry observations;

    @Test
    void anObservedSendCarriesTheTraceAndAnUnobservedOneNoTraceHeader() throws Exception {
        String topic = "test.string-producer." + UUID.randomUUID();
        // as a service declares it (the test application has no consumer, so no platform-made one)
        StringProducer producer = new StringProducer(kafkaProperties);
        producer.setApplicationContext(context);
        producer.afterSingletonsInstantiated();
        try {
            assertObservedAndUnobservedSends(producer, topic);
        } finally {
            producer.destroy();
        }
    }

    private void assertObservedAndUnobservedSends(StringProducer producer, String topic) throws Exception {
        Observation work = Observation.start("test.work", observations);
        String workTraceparent;
        try (Observation.Scope scope = work.openScope()) {
            workTraceparent = traceparentOf(work);
            producer.template().send(new ProducerRecord<>(topic, "k", "observed")).get(20, TimeUnit.SECONDS);
            producer.unobserved().send(new ProducerRecord<>(topic, "k", "unobserved")).get(20, TimeUnit.SECONDS);
        } finally {
            work.stop();
        }
        producer.unobserved().send(new ProducerRecord<>(topic, "k", "sentinel")).get(20, TimeUnit.SECONDS);

        List<ConsumerRecord<String, String>> records = TestKafka.recordsBefore(topic, record -> true,
                record -> "sentinel".equals(record.value()), WITHIN);
        assertThat(TraceContexts.traceId(workTraceparent)).isNotNull();
        assertThat(records).extracting(ConsumerRecord::value).containsExactly("observed", "unobserved");
        Header observed = records.get(0).headers().lastHeader(TraceContexts.TRACEPARENT);
        assertThat(observed).isNotNull();
        assertThat(TraceContexts.traceId(new String(observed.value(), StandardCharsets.ISO_8859_1)))
                .isEqualTo(TraceContexts.traceId(workTraceparent));
        assertThat(records.get(1).headers().lastHeader(TraceContexts.TRACEPARENT)).isNull();
    }

    /** The trace of {@code work}, read as a child's {@code traceparent} would carry it. */
    private String traceparentOf(Observation work) {
        return new TraceContexts(observations).capture("test.capture", work);
    }
}
