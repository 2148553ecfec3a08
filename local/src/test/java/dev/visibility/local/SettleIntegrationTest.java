package dev.visibility.local;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ./suite up}'s settle step against a real KRaft broker: with no record published since the
 * services started it is settled at the first look; a record published since then is waited out
 * for the quiet period. A consuming group's lag is waited for; the topics whose groups do not exist
 * here count no lag. Started beside the services with a go file, it looks only once the file is
 * written, and ends without a word when the up that was to write it has ended.
 */
class SettleIntegrationTest {

    static EmbeddedKafkaKraftBroker broker;
    static Settle settle;

    @BeforeAll
    static void startBroker() {
        broker = new EmbeddedKafkaKraftBroker(1, 1, Settle.CONSUMERS.keySet().toArray(String[]::new));
        broker.afterPropertiesSet();
        settle = new Settle(new SuiteLocation(Path.of("."), "http://127.0.0.1:1", broker.getBrokersAsString(), Map.of()));
    }

    @AfterAll
    static void stopBroker() {
        broker.destroy();
    }

    @Test
    void nothingPublishedSinceTheServicesStartedIsSettledAtTheFirstLook() throws Exception {
        publish("traffic.hits", Instant.now().minusSeconds(60));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long started = System.nanoTime();

        int code = settle.run(Duration.ofSeconds(30), Instant.now(), null, new PrintStream(out, true, StandardCharsets.UTF_8));

        assertThat(code).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("nothing published since the services started");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Settle.QUIET);
    }

    @Test
    void aRecordPublishedSinceTheServicesStartedIsWaitedOutForTheQuietPeriod() throws Exception {
        Instant since = Instant.now().minusSeconds(5);
        publish("public.events", Instant.now());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long started = System.nanoTime();

        int code = settle.run(Duration.ofSeconds(30), since, null, new PrintStream(out, true, StandardCharsets.UTF_8));

        assertThat(code).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("demo data ingested and delivered")
                .doesNotContain("nothing published");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Settle.QUIET);
    }

    @Test
    void withoutAStartTimeTheQuietPeriodIsWaitedAsBefore() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long started = System.nanoTime();

        int code = settle.run(Duration.ofSeconds(30), new PrintStream(out, true, StandardCharsets.UTF_8));

        assertThat(code).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("demo data ingested and delivered");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Settle.QUIET);
    }

    @Test
    void aLiveGroupsLagIsWaitedForUntilItHasCommittedTheEnd() throws Exception {
        // recommendations is worked off by actions-service's group (no other topic's, and no other test's):
        // two old records, one of them committed
        publish("recommendations", Instant.now().minusSeconds(60));
        publish("recommendations", Instant.now().minusSeconds(60));
        TopicPartition partition = new TopicPartition("recommendations", 0);
        commit("actions-service", partition, 1);
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();

            int code = settle.run(Duration.ofSeconds(1), Instant.now(), null, new PrintStream(out, true, StandardCharsets.UTF_8));

            assertThat(code).isEqualTo(1);
            assertThat(out.toString(StandardCharsets.UTF_8))
                    .contains("the services are still working off 1 records after 1 s")
                    .doesNotContain("nothing published");
        } finally {
            commit("actions-service", partition, 2);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        int code = settle.run(Duration.ofSeconds(30), Instant.now(), null, new PrintStream(out, true, StandardCharsets.UTF_8));

        assertThat(code).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("nothing published since the services started");
    }

    @Test
    void withAGoTheLooksBeginWhenTheGoFileIsWrittenAndNotBefore() throws Exception {
        Path go = Files.createTempDirectory("settle").resolve("settle.go");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CompletableFuture<Integer> code = CompletableFuture.supplyAsync(() -> settle.run(Duration.ofSeconds(30),
                Instant.now(), new Settle.Go(go, ProcessHandle.current().pid()), new PrintStream(out, true, StandardCharsets.UTF_8)));

        // waiting for the go: no answer and no word, however long up takes to start the services
        assertThat(code).failsWithin(Duration.ofSeconds(3)).withThrowableOfType(java.util.concurrent.TimeoutException.class);
        assertThat(out.size()).isZero();
        Files.writeString(go, "");

        assertThat(code.get(30, TimeUnit.SECONDS)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("nothing published since the services started");
    }

    @Test
    void withAGoWhoseUpHasEndedWithoutItTheCommandEndsWithoutAWord() throws Exception {
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor(10, TimeUnit.SECONDS);
        Path go = Files.createTempDirectory("settle").resolve("settle.go");
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        int code = settle.run(Duration.ofSeconds(30), Instant.now(), new Settle.Go(go, ended.pid()),
                new PrintStream(out, true, StandardCharsets.UTF_8));

        assertThat(code).isEqualTo(1);
        assertThat(out.size()).isZero();
    }

    private static void commit(String group, TopicPartition partition, long offset) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString()))) {
            admin.alterConsumerGroupOffsets(group, Map.of(partition, new OffsetAndMetadata(offset)))
                    .all().get(10, TimeUnit.SECONDS);
        }
    }

    private static void publish(String topic, Instant timestamp) throws Exception {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString());
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config)) {
            producer.send(new ProducerRecord<>(topic, null, timestamp.toEpochMilli(), "k", "{}")).get(10, TimeUnit.SECONDS);
        }
    }
}
