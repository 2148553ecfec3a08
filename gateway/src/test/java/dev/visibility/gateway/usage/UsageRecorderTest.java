package dev.visibility.gateway.usage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.visibility.gateway.auth.EdgePrincipal;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.events.UsageRecorded;
import dev.visibility.platform.testing.SharedInfrastructure;
import dev.visibility.platform.testing.TestKafka;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.serializer.JacksonJsonSerializer;
import tools.jackson.databind.json.JsonMapper;

/**
 * Spec 5.7: usage counts every API-key request of the project. The recorder's counts are drained by its flush
 * every few seconds while requests go on being counted; none may be lost or counted twice between two flushes.
 * The last test publishes to the shared test broker; auth-service's UsageTest covers the consuming side.
 */
class UsageRecorderTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int THREADS = 4;
    private static final int REQUESTS_PER_THREAD = 300_000;

    @Test
    void everyRequestCountedWhileDrainsRunIsInExactlyOneDrain() throws Exception {
        UsageRecorder recorder = new UsageRecorder(null, Duration.ofHours(1));
        List<EdgePrincipal> keys = List.of(key("k1", "p1"), key("k2", "p1"), key("k3", "p2"));
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> callers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                callers.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < REQUESTS_PER_THREAD; i++) {
                        recorder.record(keys.get(i % keys.size()));
                    }
                    return null;
                }));
            }
            Map<UsageRecorder.Counter, Long> total = new HashMap<>();
            int drains = 0;
            start.countDown();
            while (!callers.stream().allMatch(Future::isDone)) {
                recorder.drain().forEach((counter, n) -> total.merge(counter, n, Long::sum));
                drains++;
            }
            for (Future<?> caller : callers) {
                caller.get(1, TimeUnit.MINUTES);
            }
            recorder.drain().forEach((counter, n) -> total.merge(counter, n, Long::sum));

            long perKey = (long) THREADS * REQUESTS_PER_THREAD / keys.size();
            assertThat(drains).as("drains while the requests were counted").isGreaterThan(1);
            assertThat(total).containsOnly(
                    Map.entry(new UsageRecorder.Counter("p1", "k1"), perKey),
                    Map.entry(new UsageRecorder.Counter("p1", "k2"), perKey),
                    Map.entry(new UsageRecorder.Counter("p2", "k3"), perKey));
            assertThat(recorder.drain()).as("nothing left after the last drain").isEmpty();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void onlyApiKeyRequestsAreCounted() {
        UsageRecorder recorder = new UsageRecorder(null, Duration.ofHours(1));
        recorder.record(key("k1", "p1"));
        recorder.record(new EdgePrincipal(EdgePrincipal.Kind.MEMBER, "u1", "p1", "a1", Set.of("actions.read"), Set.of(),
                "plus", true, false));

        assertThat(recorder.drain()).containsOnly(Map.entry(new UsageRecorder.Counter("p1", "k1"), 1L));
    }

    /**
     * Spec 5.7 against the shared test broker: a record the broker refuses (here: larger than the topic's
     * max.message.bytes) is sent again, the same record with the same eventId, at the next flush once the broker
     * takes it; the requests counted meanwhile come in a record of their own.
     */
    @Test
    void aRecordTheBrokerRefusedIsSentAgainWithItsEventIdAtTheNextFlush() throws Exception {
        String projectId = UUID.randomUUID().toString();
        ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, Topics.USAGE_REQUESTS);
        KafkaTemplate<String, Object> kafka = new KafkaTemplate<>(new DefaultKafkaProducerFactory<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfrastructure.kafkaBootstrapServers(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, JacksonJsonSerializer.class,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000,
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000)));
        UsageRecorder recorder = new UsageRecorder(kafka, Duration.ofHours(1));
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                SharedInfrastructure.kafkaBootstrapServers()))) {
            try {
                admin.createTopics(List.of(new NewTopic(Topics.USAGE_REQUESTS, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
            }
            admin.incrementalAlterConfigs(Map.of(topic, List.of(new AlterConfigOp(
                    new ConfigEntry("max.message.bytes", "1"), AlterConfigOp.OpType.SET)))).all().get(30, TimeUnit.SECONDS);
            try {
                for (int i = 0; i < 3; i++) {
                    recorder.record(key("k1", projectId));
                }
                recorder.flush();
                List<UsageRecorded> refused = await("the refused record kept").atMost(Duration.ofSeconds(60))
                        .until(recorder::unsent, kept -> kept.size() == 1);
                assertThat(refused.get(0).requests()).isEqualTo(3);
            } finally {
                admin.incrementalAlterConfigs(Map.of(topic, List.of(new AlterConfigOp(
                        new ConfigEntry("max.message.bytes", ""), AlterConfigOp.OpType.DELETE)))).all().get(30, TimeUnit.SECONDS);
            }
            UUID refusedEventId = recorder.unsent().get(0).eventId();

            recorder.record(key("k1", projectId));
            recorder.record(key("k1", projectId));
            await("the broker takes records again").atMost(Duration.ofSeconds(60)).until(() -> {
                recorder.flush();
                kafka.flush();
                return recorder.unsent().isEmpty();
            });

            List<ConsumerRecord<String, String>> records = TestKafka.awaitRecords(Topics.USAGE_REQUESTS,
                    r -> projectId.equals(r.key()), 2, Duration.ofSeconds(30));
            assertThat(records).extracting(r -> JSON.readTree(r.value()).get("requests").asLong())
                    .containsExactlyInAnyOrder(3L, 2L);
            assertThat(records).filteredOn(r -> JSON.readTree(r.value()).get("requests").asLong() == 3)
                    .singleElement()
                    .extracting(r -> JSON.readTree(r.value()).get("eventId").asText())
                    .isEqualTo(refusedEventId.toString());
        } finally {
            kafka.destroy();
        }
    }

    private static EdgePrincipal key(String id, String projectId) {
        return new EdgePrincipal(EdgePrincipal.Kind.API_KEY, id, projectId, "a1", Set.of("actions.read"), Set.of(), "plus",
                true, false);
    }
}
