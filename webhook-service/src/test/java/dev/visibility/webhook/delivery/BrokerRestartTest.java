package dev.visibility.webhook.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.visibility.platform.events.Topics;
import dev.visibility.platform.testing.Http;
import dev.visibility.platform.testing.SharedInfrastructure;
import dev.visibility.platform.testing.TestTokens;
import dev.visibility.webhook.WebhookServiceApplication;
import dev.visibility.webhook.support.Events;
import dev.visibility.webhook.support.Kafka;
import dev.visibility.platform.testing.KafkaProcess;
import dev.visibility.webhook.support.Receiver;
import dev.visibility.webhook.support.ReceiverTls;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue 4, "no event lost": a broker restart loses no delivery. A real Kafka broker in its own
 * process ({@link KafkaProcess}), the real webhook-service in its own application context against
 * it (not the shared test context: that one's embedded broker cannot be restarted with its data),
 * a real HTTPS receiver. Events are published as a steady stream; in the middle of the deliveries
 * the broker is killed with {@code SIGKILL} and started again on the same ports and log directory.
 * Every event must reach the receiver (duplicates are allowed, each with the same
 * {@code X-Service-Delivery}: at-least-once, spec 6.4), every delivery must end {@code succeeded},
 * and the service must have recovered by itself: the same context, its consumers running, events
 * published after the restart delivered.
 *
 * <p>Runs in its own surefire execution and JVM (tag {@code broker-restart}, see the pom): it
 * starts a second Spring context and a broker process, which the shared context need not see.
 */
@Tag("broker-restart")
class BrokerRestartTest {

    private static final int EVENTS = 600;
    private static final Duration PUBLISH_GAP = Duration.ofMillis(25);
    private static final int KILL_AFTER_RECEIVED = 120;
    private static final Duration OUTAGE = Duration.ofSeconds(3);
    private static final Duration WITHIN = Duration.ofSeconds(240);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path dir;

    private final long started = System.nanoTime();

    @Test
    @SuppressWarnings("unchecked")
    void aBrokerKilledInTheMiddleOfDeliveriesLosesNoDeliveryAndTheServiceRecoversByItself() throws Exception {
        try (KafkaProcess kafka = KafkaProcess.format(dir.resolve("kafka"))) {
            kafka.start();
            timing("broker started on " + kafka.bootstrapServers());
            ConfigurableApplicationContext service = startService(kafka);
            timing("webhook-service started");
            try (Receiver receiver = Receiver.https(InetAddress.getLoopbackAddress(), 8);
                    KafkaProducer<String, String> producer = producer(kafka)) {
                String project = UUID.randomUUID().toString();
                UUID webhookId = createWebhook(service, project, receiver.url("/restart"));

                // a steady stream of events; the producer keeps what it cannot send during the outage
                Map<String, Future<RecordMetadata>> published = new LinkedHashMap<>();
                AtomicInteger publishedAfterRestart = new AtomicInteger();
                AtomicBoolean restarted = new AtomicBoolean();
                Set<String> sentAfterRestart = ConcurrentHashMap.newKeySet();
                Thread publisher = new Thread(() -> {
                    for (int i = 0; i < EVENTS; i++) {
                        String actionId = UUID.randomUUID().toString();
                        Kafka.PublicEventRecord event = Kafka.event("action.created", project, Events.actionCreated(actionId));
                        ProducerRecord<String, String> record = new ProducerRecord<>(Topics.PUBLIC_EVENTS, project, event.json());
                        record.headers().add(Topics.EVENT_ID_HEADER, event.eventId().toString().getBytes());
                        record.headers().add(Topics.EVENT_TYPE_HEADER, event.event().getBytes());
                        Future<RecordMetadata> sent = producer.send(record);
                        synchronized (published) {
                            published.put(actionId, sent);
                        }
                        if (restarted.get()) {
                            publishedAfterRestart.incrementAndGet();
                            sentAfterRestart.add(actionId);
                        }
                        sleep(PUBLISH_GAP);
                    }
                }, "restart-test-publisher");
                publisher.start();

                receiver.await(KILL_AFTER_RECEIVED, WITHIN);
                kafka.kill();
                int receivedAtKill = receiver.received().size();
                timing("broker killed (SIGKILL) after " + receivedAtKill + " requests received, " + published(published)
                        + " events published");
                sleep(OUTAGE);
                int receivedDuringOutage = receiver.received().size() - receivedAtKill;
                long restarting = System.nanoTime();
                kafka.start();
                long ready = System.nanoTime();
                restarted.set(true);
                timing(String.format("broker restarted on the same ports and log directory in %.1f s (", (ready - restarting) / 1e9)
                        + receivedDuringOutage
                        + " requests received while it was down, " + published(published) + " events published)");

                publisher.join(WITHIN.toMillis());
                producer.flush();
                List<String> actionIds;
                synchronized (published) {
                    for (Future<RecordMetadata> sent : published.values()) {
                        sent.get(WITHIN.toSeconds(), TimeUnit.SECONDS);
                    }
                    actionIds = List.copyOf(published.keySet());
                }
                assertThat(actionIds).hasSize(EVENTS);
                timing("all " + EVENTS + " events acknowledged by the broker (" + publishedAfterRestart.get()
                        + " published after the restart)");

                // every event arrives; a repeat carries the same X-Service-Delivery
                Map<String, Set<String>> deliveryIdsByAction = awaitAllReceived(receiver, actionIds);
                List<Receiver.Received> requests = receiver.received();
                long firstAfterRestart = requests.stream().mapToLong(Receiver.Received::nanoTime)
                        .filter(at -> at > ready).min().orElse(-1);
                timing("all " + EVENTS + " events received: " + requests.size() + " requests, " + (requests.size() - EVENTS)
                        + " repeats; the first request after the restart came "
                        + String.format("%.1f s", (firstAfterRestart - ready) / 1e9)
                        + " after the broker was ready again");
                assertThat(deliveryIdsByAction.keySet()).containsExactlyInAnyOrderElementsOf(actionIds);
                assertThat(deliveryIdsByAction.values()).allSatisfy(ids -> assertThat(ids).hasSize(1));
                assertThat(receivedAtKill).as("the broker died in the middle of the deliveries").isLessThan(EVENTS);
                assertThat(sentAfterRestart).as("events were published after the restart").isNotEmpty();

                // the delivery log: one delivery per event, every one succeeded
                Map<String, Long> states = awaitStates(service, webhookId);
                timing("delivery log: " + states);
                assertThat(states).isEqualTo(Map.of("succeeded", (long) EVENTS));
                // recovered by itself: the same context, every consumer running
                assertThat(service.getBean(KafkaListenerEndpointRegistry.class).getListenerContainers())
                        .isNotEmpty().allSatisfy(container -> assertThat(container.isRunning()).isTrue());
            } finally {
                service.close();
            }
        }
    }

    private ConfigurableApplicationContext startService(KafkaProcess kafka) {
        var postgres = SharedInfrastructure.postgres();
        // command-line arguments: above application.yml and the tests' config/application.properties
        return new SpringApplicationBuilder(WebhookServiceApplication.class).run(
                "--server.port=0",
                "--spring.kafka.bootstrap-servers=" + kafka.bootstrapServers(),
                "--suite.db.host=localhost",
                "--suite.db.port=" + postgres.getPort(),
                "--suite.db.name=" + SharedInfrastructure.DATABASE,
                "--suite.db.username=" + SharedInfrastructure.USER,
                "--suite.db.password=" + SharedInfrastructure.PASSWORD,
                "--suite.internal-token.public-key=" + TestTokens.PUBLIC_KEY,
                "--suite.cursor.secret=" + TestTokens.CURSOR_SECRET,
                "--suite.webhook.tls.trust-store=" + ReceiverTls.trustStore(),
                "--suite.webhook.tls.trust-store-password=" + ReceiverTls.PASSWORD);
    }

    @SuppressWarnings("unchecked")
    private static UUID createWebhook(ConfigurableApplicationContext service, String project, String url) {
        String port = service.getEnvironment().getProperty("local.server.port");
        WebTestClient client = Http.client(Integer.parseInt(port));
        byte[] body = client.post().uri("/api/v2/projects/" + project + "/webhooks")
                .header(HttpHeaders.AUTHORIZATION, TestTokens.bearer(TestTokens.forProject(project, "webhooks.write")))
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", url, "events", List.of("action.created")))
                .exchange().expectStatus().isCreated().expectBody().returnResult().getResponseBody();
        Map<String, Object> data = (Map<String, Object>) JSON.readValue(body, Map.class).get("data");
        return UUID.fromString((String) data.get("id"));
    }

    private static KafkaProducer<String, String> producer(KafkaProcess kafka) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        // long enough to outlast the outage: what is sent while the broker is down goes when it is back
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) WITHIN.toMillis());
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) WITHIN.toMillis());
        return new KafkaProducer<>(config);
    }

    /** Waits until every published event reached the receiver; answers the delivery ids seen per event. */
    @SuppressWarnings("unchecked")
    private Map<String, Set<String>> awaitAllReceived(Receiver receiver, List<String> actionIds) {
        return await("all " + actionIds.size() + " events delivered (service log in the test output)").atMost(WITHIN)
                .pollInterval(Duration.ofMillis(200)).until(() -> {
                    Map<String, Set<String>> byAction = new HashMap<>();
                    for (Receiver.Received request : receiver.received()) {
                        Map<String, Object> body = JSON.readValue(request.body(), Map.class);
                        String actionId = (String) ((Map<String, Object>) body.get("data")).get("actionId");
                        byAction.computeIfAbsent(actionId, id -> new HashSet<>()).add(request.header("X-Service-Delivery"));
                    }
                    return byAction;
                }, byAction -> byAction.keySet().containsAll(actionIds));
    }

    /** Waits until no delivery of the webhook is pending any more; answers the count per state. */
    private static Map<String, Long> awaitStates(ConfigurableApplicationContext service, UUID webhookId) {
        DatabaseClient db = service.getBean(DatabaseClient.class);
        return await("no delivery of webhook " + webhookId + " pending").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200)).until(() -> {
                    Map<String, Long> states = new HashMap<>();
                    db.sql("SELECT state, count(*) AS n FROM deliveries WHERE subscription_id = :webhook GROUP BY state")
                            .bind("webhook", webhookId)
                            .map((row, meta) -> Map.entry(row.get("state", String.class), row.get("n", Long.class)))
                            .all().doOnNext(entry -> states.put(entry.getKey(), entry.getValue()))
                            .then().block(Duration.ofSeconds(20));
                    return states;
                }, states -> !states.containsKey("pending"));
    }

    private static int published(Map<String, ?> published) {
        synchronized (published) {
            return published.size();
        }
    }

    private void timing(String what) {
        System.out.printf("[broker-restart] %7.1f s  %s%n", (System.nanoTime() - started) / 1e9, what);
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
