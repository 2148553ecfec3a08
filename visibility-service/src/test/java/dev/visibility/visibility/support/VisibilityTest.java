package dev.visibility.visibility.support;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import dev.visibility.platform.events.Topics;
import dev.visibility.platform.security.Caller;
import dev.visibility.platform.testing.Http;
import dev.visibility.platform.testing.SharedInfrastructure;
import dev.visibility.platform.testing.TestTokens;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Base of the module's integration tests: the one Spring context of the module (real Kafka broker,
 * real PostgreSQL), records published through the real topics, HTTP through the real server.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
public abstract class VisibilityTest {

    protected static final Duration WAIT = Duration.ofSeconds(90);
    protected static final ObjectMapper JSON = JsonMapper.builder().build();

    private static KafkaProducer<String, String> producer;

    @LocalServerPort
    protected int port;

    @Autowired
    protected DatabaseClient db;

    @Autowired
    protected ObjectMapper mapper;

    protected WebTestClient client;

    @BeforeEach
    void createClient() {
        client = Http.client(port);
    }

    private static synchronized KafkaProducer<String, String> producer() {
        if (producer == null) {
            Properties props = new Properties();
            props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfrastructure.kafkaBootstrapServers());
            props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
            props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
            props.put(ProducerConfig.ACKS_CONFIG, "all");
            props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 4 * 1024 * 1024);
            producer = new KafkaProducer<>(props);
        }
        return producer;
    }

    /** Publishes a record serialized with the service's own ObjectMapper, as a producer would. */
    protected void publish(String topic, String key, Object value) {
        publishRaw(topic, key, value instanceof String text ? text : mapper.writeValueAsString(value));
    }

    protected void publishRaw(String topic, String key, String value) {
        try {
            producer().send(new ProducerRecord<>(topic, key, value)).get(20, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not publish to " + topic, e);
        }
    }

    /** The public events of one project, parsed, in the order they were published. */
    protected static List<Map<String, Object>> publicEvents(UUID projectId, int atLeast) {
        return parse(TopicRecorder.of(Topics.PUBLIC_EVENTS).await(r -> projectId.toString().equals(r.key()), atLeast, WAIT));
    }

    @SuppressWarnings("unchecked")
    protected static List<Map<String, Object>> parse(List<ConsumerRecord<String, String>> records) {
        return records.stream().map(r -> (Map<String, Object>) JSON.readValue(r.value(), Map.class)).toList();
    }

    /**
     * The public events of one project, once {@code last} (the event that a test published last,
     * on the project's key: a sentinel) is among them; every event caused before it is then there too.
     */
    protected static List<Map<String, Object>> publicEventsThrough(UUID projectId, java.util.function.Predicate<Map<String, Object>> last) {
        return parse(TopicRecorder.of(Topics.PUBLIC_EVENTS).awaitUntil(r -> projectId.toString().equals(r.key()),
                records -> parse(records).stream().anyMatch(last), WAIT));
    }

    protected static void awaitTrue(String what, BooleanSupplier condition) {
        Awaitility.await(what).atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(condition::getAsBoolean);
    }

    protected long count(String sql, Object... binds) {
        DatabaseClient.GenericExecuteSpec spec = db.sql(sql);
        for (int i = 0; i < binds.length; i++) {
            spec = spec.bind(i, binds[i]);
        }
        return spec.map(row -> row.get(0, Long.class)).one().block();
    }

    /** Asserts the error shape of spec 7 with the given status and answers the parsed body. */
    protected Map<String, Object> errorBody(WebTestClient.RequestHeadersSpec<?> request, int status) {
        return Http.error(request, status);
    }

    /** A bearer header for an API key of the project, in the given account, with the given features. */
    protected static String bearer(UUID projectId, String accountId, String... features) {
        return TestTokens.bearer(TestTokens.mint(new Caller(accountId, projectId.toString(), "key-test", null, null,
                Set.of("visibility.read"), Set.of(features))));
    }

    protected static String bearer(UUID projectId) {
        return bearer(projectId, TestTokens.ACCOUNT);
    }
}
