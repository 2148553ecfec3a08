package dev.visibility.traffic.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import dev.visibility.platform.events.AdoptionMetricSampled;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.events.TrafficConfigured;
import dev.visibility.platform.events.TrafficHitObserved;
import dev.visibility.platform.testing.SharedInfrastructure;
import dev.visibility.platform.testing.TestTokens;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Base of the module's integration tests: the one Spring context of the module (real Kafka broker,
 * real PostgreSQL), records published through the real topics, HTTP through the real server. Each
 * test uses fresh project ids.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
public abstract class TrafficTest {

    protected static final Duration WAIT = Duration.ofSeconds(60);
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
        client = WebTestClient.bindToServer().baseUrl("http://localhost:" + port)
                .responseTimeout(Duration.ofSeconds(30)).build();
    }

    private static synchronized KafkaProducer<String, String> producer() {
        if (producer == null) {
            Properties props = new Properties();
            props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfrastructure.kafkaBootstrapServers());
            props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
            props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
            props.put(ProducerConfig.ACKS_CONFIG, "all");
            props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
            producer = new KafkaProducer<>(props);
        }
        return producer;
    }

    /** Publishes records (objects serialized with the service's ObjectMapper, strings as they are) in order. */
    protected void publish(String topic, String key, List<?> values) {
        try {
            List<java.util.concurrent.Future<?>> acks = new java.util.ArrayList<>();
            for (Object value : values) {
                String json = value instanceof String text ? text : mapper.writeValueAsString(value);
                acks.add(producer().send(new ProducerRecord<>(topic, key, json)));
            }
            for (java.util.concurrent.Future<?> ack : acks) {
                ack.get(20, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            throw new IllegalStateException("could not publish to " + topic, e);
        }
    }

    protected void publishHits(UUID project, List<?> hits) {
        publish(Topics.TRAFFIC_HITS, project.toString(), hits);
    }

    /** Publishes the hits and waits until the project's total over 90 days has grown by {@code expectedNew}. */
    protected void publishHitsAndAwait(UUID project, List<?> hits, long expectedNew) {
        long before = totalEvents(project);
        publishHits(project, hits);
        awaitTotal(project, before + expectedNew);
    }

    protected void awaitTotal(UUID project, long total) {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(100)).until(() -> totalEvents(project) >= total);
        assertThat(totalEvents(project)).isEqualTo(total);
    }

    protected long totalEvents(UUID project) {
        Long value = db.sql("SELECT coalesce(sum(total_events), 0)::bigint FROM traffic_days WHERE project_id = :p AND hostname = ''")
                .bind("p", project).map(row -> row.get(0, Long.class)).one().block();
        return value == null ? 0 : value;
    }

    protected long count(String sql, UUID project) {
        Long value = db.sql(sql).bind("p", project).map(row -> ((Number) row.get(0)).longValue()).one().block();
        return value == null ? 0 : value;
    }

    protected static Instant ago(Duration duration) {
        return Instant.now().minus(duration).truncatedTo(ChronoUnit.MILLIS);
    }

    protected static TrafficHitObserved bot(UUID project, String source, String hostname, String path, int status,
            String botName, String session, Instant at) {
        return new TrafficHitObserved(UUID.randomUUID(), project, source, hostname, path, status, botName, null, session, at);
    }

    protected static TrafficHitObserved referral(UUID project, String source, String hostname, String path, int status,
            String referrer, String session, Instant at) {
        return new TrafficHitObserved(UUID.randomUUID(), project, source, hostname, path, status, null, referrer, session, at);
    }

    protected static TrafficConfigured config(UUID project, Instant at, List<TrafficConfigured.Domain> domains,
            List<TrafficConfigured.Source> sources) {
        return new TrafficConfigured(UUID.randomUUID(), project, at, domains, sources);
    }

    protected static TrafficConfigured.Source source(String name, String kind, int hours, String... domains) {
        return new TrafficConfigured.Source(name, kind, BigDecimal.valueOf(hours), List.of(domains));
    }

    protected static AdoptionMetricSampled sample(UUID project, String domain, boolean primary, String metric,
            String source, long value, Instant at) {
        return new AdoptionMetricSampled(UUID.randomUUID(), project, domain, primary, metric, source,
                BigDecimal.valueOf(value), at);
    }

    protected void publishConfigAndAwait(TrafficConfigured config) {
        publish(Topics.TRAFFIC_CONFIG, config.projectId().toString(), List.of(config));
        await().atMost(WAIT).pollInterval(Duration.ofMillis(100)).until(() -> count(
                "SELECT count(*) FROM project_config WHERE project_id = :p AND configured_at = '"
                        + config.configuredAt() + "'::timestamptz", config.projectId()) == 1);
    }

    protected static String bearer(UUID project) {
        return TestTokens.bearer(TestTokens.forProject(project.toString(), "traffic.read", "adoption.read"));
    }

    /** A successful {data, meta} answer: asserts meta and answers data. */
    @SuppressWarnings("unchecked")
    protected Map<String, Object> data(UUID project, String pathAndQuery) {
        byte[] raw = client.get().uri("/api/v2/projects/" + project + pathAndQuery)
                .header(HttpHeaders.AUTHORIZATION, bearer(project)).exchange()
                .expectStatus().isOk().expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_JSON)
                .expectBody().returnResult().getResponseBody();
        Map<String, Object> body = JSON.readValue(raw, Map.class);
        // spec 2.1: {data, meta}; meta {timestamp, projectId}
        assertThat(body).containsOnlyKeys("data", "meta");
        Map<String, Object> meta = (Map<String, Object>) body.get("meta");
        assertThat(meta).containsOnlyKeys("timestamp", "projectId").containsEntry("projectId", project.toString());
        Instant.parse((String) meta.get("timestamp"));
        return (Map<String, Object>) body.get("data");
    }

    /** Asserts the error shape of spec 7 with the given status and answers the parsed body. */
    @SuppressWarnings("unchecked")
    protected Map<String, Object> error(UUID project, String pathAndQuery, int status) {
        byte[] raw = client.get().uri("/api/v2/projects/" + project + pathAndQuery)
                .header(HttpHeaders.AUTHORIZATION, bearer(project)).exchange()
                .expectStatus().isEqualTo(status).expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_JSON)
                .expectBody().returnResult().getResponseBody();
        Map<String, Object> body = JSON.readValue(raw, Map.class);
        assertThat(body.keySet()).contains("error", "message", "status").isSubsetOf("error", "message", "status", "reason");
        assertThat(body.get("status")).isEqualTo(status);
        return body;
    }

    @SuppressWarnings("unchecked")
    protected static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    protected static List<Map<String, Object>> list(Object value) {
        return (List<Map<String, Object>>) value;
    }
}
