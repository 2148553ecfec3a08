package dev.visibility.platform.events;

import java.util.HashMap;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.MicrometerProducerListener;

/**
 * A producer of String values, byte for byte, with the service's producer settings (idempotent,
 * acks=all, timeouts): dead letters, and records a service serialized itself (the local demo
 * data). Declare it as a bean of its own type; it is deliberately not a KafkaTemplate bean, so
 * Boot's JSON template stays as it is. Its sends are observed (the application's ObservationRegistry,
 * found when it is a bean), except those of {@link #unobserved()}.
 */
public final class StringProducer implements DisposableBean, ApplicationContextAware, SmartInitializingSingleton {

    private final DefaultKafkaProducerFactory<String, String> producers;
    private final KafkaTemplate<String, String> template;
    private final KafkaTemplate<String, String> unobserved;

    public StringProducer(KafkaProperties properties) {
        Map<String, Object> config = new HashMap<>(properties.buildProducerProperties());
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        this.producers = new DefaultKafkaProducerFactory<>(config);
        this.template = new KafkaTemplate<>(producers);
        this.template.setObservationEnabled(true);
        this.unobserved = new KafkaTemplate<>(producers);
    }

    @Override
    public void setApplicationContext(ApplicationContext context) {
        template.setApplicationContext(context);
        MeterRegistry meters = context.getBeanProvider(MeterRegistry.class).getIfUnique();
        if (meters != null) {
            // the client's own metrics: records sent per topic (dead letters among them), errors, latency
            producers.addListener(new MicrometerProducerListener<>(meters));
        }
    }

    @Override
    public void afterSingletonsInstantiated() {
        template.afterSingletonsInstantiated();
    }

    public KafkaTemplate<String, String> template() {
        return template;
    }

    /**
     * The same producer without an observation per record (no producer span, no
     * {@code spring.kafka.template} timer, no {@code traceparent} header): for records that a service
     * sends in numbers to a topic of its own whose consumer does not take its trace from the record
     * (webhook-service's delivery requests: each attempt continues the trace stored with its
     * delivery). There, the observation of each send was 7–9 % of the JVM's CPU (bench/WebhookDeliveryBench.md).
     */
    public KafkaTemplate<String, String> unobserved() {
        return unobserved;
    }

    @Override
    public void destroy() {
        producers.destroy();
    }
}
