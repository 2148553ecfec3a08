package dev.visibility.systemtests;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import dev.visibility.platform.testing.KafkaProcess;
import dev.visibility.platform.testing.TestFiles;
import dev.visibility.systemtests.WebhookDrill.Publisher;
import dev.visibility.systemtests.WebhookDrill.Subscription;
import dev.visibility.systemtests.WebhookDrill.Tally;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 22, drill 2: the Kafka broker is restarted twice under the load of drill 1 (5,000 tracking
 * runs, 20 subscriptions): the first time killed ({@code SIGKILL}), the second time stopped
 * ({@code SIGTERM}, a controlled shutdown), each time started again at once on the same ports and
 * log directory. The services are not restarted: visibility-service and webhook-service reconnect
 * by themselves. Every (event, subscription) is delivered at least once, signed; every repeat of a
 * pair carries the same {@code X-Service-Delivery}; every delivery ends {@code succeeded}; nothing
 * is dead-lettered.
 *
 * <p>The shared broker of the test JVM cannot be restarted with its data, so the drill runs on a
 * broker process of its own ({@link KafkaProcess}) with its own visibility-service and
 * webhook-service (schemas {@code drill2_visibility} and {@code drill2_webhook} of the shared
 * PostgreSQL, so that their outbox relays and fan-out do not meet the shared services') and its
 * own gateway, which routes auth to the shared auth-service (keys, usage and key events stay on
 * the shared broker) and visibility and webhooks to the drill's services.
 */
@Tag("drill")
class BrokerRestartDrillSystemTest extends SystemTest {

    private static final String WEBHOOK_SCHEMA = "drill2_webhook";
    private static final Duration RECOVERY = Duration.ofMinutes(6);

    @Test
    void twoBrokerRestartsUnderLoadDeliverEveryEventToEverySubscriptionUnderOneDeliveryIdAndDeadLetterNothing()
            throws Exception {
        int expected = WebhookDrill.EVENTS * WebhookDrill.SUBSCRIPTIONS;
        List<ServiceProcess> started = new ArrayList<>();
        long setUp = System.nanoTime();
        // beside target/process-logs, not in it (the log checks read every file there); removed when the drill passes
        Path dir = ServiceProcess.logsDir().toPath().toAbsolutePath().resolveSibling("drill2-kafka-" + System.currentTimeMillis());
        boolean passed = false;
        try (KafkaProcess broker = KafkaProcess.format(dir)) {
            broker.start();
            Map<String, String> env = new HashMap<>(edge.serviceEnv);
            env.put("SPRING_KAFKA_BOOTSTRAP_SERVERS", broker.bootstrapServers());
            ServiceProcess visibility = ServiceProcess.startJar("visibility-service", "visibility-service-drill2", env,
                    "--suite.db.schema=drill2_visibility");
            started.add(visibility);
            Map<String, String> webhookEnv = new HashMap<>(env);
            webhookEnv.put("SUITE_WEBHOOK_SECRET_KEY", Edge.WEBHOOK_SECRET_KEY);
            // the edge's arguments, but local mode's time-out and back-off (5 s; about 1, 2 and 4 s) instead of the
            // edge's 3 s and 0.2 to 0.8 s: on a starved machine a receiver in the test JVM may answer late for
            // a few seconds, which must cost a retry, not the delivery (what is drilled is the broker)
            List<String> webhookArgs = new ArrayList<>(Edge.WEBHOOK_ARGS.stream()
                    .filter(arg -> !arg.startsWith("--suite.webhook.delivery.timeout=")
                            && !arg.startsWith("--suite.webhook.delivery.backoff-"))
                    .toList());
            webhookArgs.addAll(List.of("--suite.webhook.delivery.timeout=5s", "--suite.webhook.delivery.backoff-base=1s",
                    "--suite.webhook.delivery.backoff-max=4s", "--suite.db.schema=" + WEBHOOK_SCHEMA));
            ServiceProcess webhook = ServiceProcess.startJar("webhook-service", "webhook-service-drill2", webhookEnv,
                    webhookArgs.toArray(String[]::new));
            started.add(webhook);
            int down = ServiceProcess.freePort();
            // the gateway's own Kafka clients (usage, key events) stay on the shared broker with auth-service
            ServiceProcess gateway = ServiceProcess.startJar("gateway", "gateway-drill2", edge.gatewayEnv,
                    "--suite.services.auth-service=" + edge.auth.baseUrl(),
                    "--suite.services.visibility-service=" + visibility.baseUrl(),
                    "--suite.services.actions-service=http://127.0.0.1:" + down,
                    "--suite.services.outcomes-service=http://127.0.0.1:" + down,
                    "--suite.services.traffic-service=http://127.0.0.1:" + down,
                    "--suite.services.agents-service=http://127.0.0.1:" + down,
                    "--suite.services.webhook-service=" + webhook.baseUrl(),
                    "--suite.services.mcp-service=http://127.0.0.1:" + down,
                    "--suite.rate-limit.store=local",
                    "--suite.rate-limit.plans.plus=" + Edge.DOMAIN_LIMIT,
                    "--suite.rate-limit.member=" + Edge.DOMAIN_LIMIT);
            started.add(gateway);
            CompletableFuture.allOf(started.stream()
                    .map(process -> CompletableFuture.runAsync(() -> process.awaitReady(Duration.ofMinutes(5))))
                    .toArray(CompletableFuture[]::new)).join();
            double setUpSeconds = (System.nanoTime() - setUp) / 1e9;

            Tally tally = new Tally();
            List<String> restarts = new ArrayList<>();
            try (Receiver receiver = Receiver.streaming(16, tally)) {
                List<Subscription> subscriptions = WebhookDrill.subscribe(gateway.baseUrl(), project(), key(), receiver);
                tally.expect(subscriptions);
                WebhookDrill.Stages stages = new WebhookDrill.Stages(broker.bootstrapServers(), "drill2_visibility",
                        WEBHOOK_SCHEMA, subscriptions);
                try (Publisher publisher = new Publisher(broker.bootstrapServers(), project(), tally)) {
                    long loadStarted = System.nanoTime();
                    publisher.start();
                    // restarts after 1/3 and 2/3 of the runs are published (SIGKILL, then SIGTERM), each once at
                    // least 2,000 more deliveries were made since the previous one
                    int readyAt = 0;
                    for (int restart = 1; restart <= 2; restart++) {
                        publisher.awaitProgress(restart / 3.0, tally, readyAt, 2_000, RECOVERY, stages);
                        int published = publisher.sent();
                        int delivered = tally.delivered();
                        long stopped = System.nanoTime();
                        String how;
                        if (restart == 1) {
                            broker.kill();
                            how = "killed (SIGKILL)";
                        } else {
                            broker.stop();
                            how = "stopped (SIGTERM)";
                        }
                        double gone = (System.nanoTime() - stopped) / 1e9;
                        broker.start();
                        double ready = (System.nanoTime() - stopped) / 1e9;
                        int atReady = tally.delivered();
                        Waits.until("a delivery after restart " + restart, RECOVERY, tally::delivered, n -> n > atReady);
                        readyAt = atReady;
                        restarts.add("broker %s after %d runs published and %d deliveries: gone after %.1f s, ready again"
                                .formatted(how, published, delivered, gone)
                                + " %.1f s after the signal, first delivery after it %.1f s after the signal".formatted(
                                        ready, (System.nanoTime() - stopped) / 1e9));
                    }
                    publisher.awaitDone(RECOVERY);
                    try {
                        Waits.until("every (event, subscription) delivered", RECOVERY, tally::delivered, n -> n >= expected);
                    } catch (ConditionTimeoutException e) {
                        // reported below as lost
                    }
                    double seconds = (System.nanoTime() - loadStarted) / 1e9;
                    Map<String, Integer> states = Waits.until("no drill delivery pending", Duration.ofMinutes(1),
                            () -> WebhookDrill.deliveryStates(WEBHOOK_SCHEMA, subscriptions), s -> !s.containsKey("pending"));
                    Map<String, Integer> failedAttempts = WebhookDrill.failedAttempts(WEBHOOK_SCHEMA, subscriptions);
                    long checking = System.nanoTime();
                    List<String> dead = WebhookDrill.deadLetters(broker.bootstrapServers(), project(), tally.runIds,
                            subscriptions, RECOVERY);
                    restarts.add("dead-letter sentinels checked in %.1f s".formatted((System.nanoTime() - checking) / 1e9));
                    System.out.printf("[drill 2] own broker, visibility-service, webhook-service and gateway ready %.0f s"
                            + " after the drill began%n", setUpSeconds);
                    restarts.forEach(line -> System.out.println("[drill 2] " + line));
                    System.out.println("[drill 2] stages at the end: " + stages.describe());
                    System.out.printf("[drill 2] Kafka broker restarted twice (SIGKILL, SIGTERM), no service restarted:"
                            + " %d subscriptions, published %d tracking runs (%d/s offered) = %d (event, subscription) pairs;"
                            + " delivered %d, POSTs %d, duplicates %d (under another X-Service-Delivery %d), lost %d,"
                            + " bad signatures %d, failed attempts by error class %s, deliveries by state %s, dead-lettered %d;"
                            + " %.0f s from the first publication%n",
                            subscriptions.size(), publisher.acknowledged.get(), WebhookDrill.PER_SECOND, expected,
                            tally.delivered(), tally.posts.get(), tally.duplicates.get(), tally.otherDeliveryId.get(),
                            expected - tally.delivered(), tally.badSignatures.get(), failedAttempts, states, dead.size(),
                            seconds);
                    assertThat(started).as("services restarted or crashed").allMatch(ServiceProcess::isAlive);
                    assertThat(publisher.failures).as("runs the broker did not take").isEmpty();
                    assertThat(publisher.acknowledged.get()).isEqualTo(WebhookDrill.EVENTS);
                    assertThat(tally.examples()).as("strangers, bad signatures, repeats under another id").isEmpty();
                    assertThat(tally.delivered()).as("(event, subscription) pairs delivered").isEqualTo(expected);
                    assertThat(tally.otherDeliveryId.get()).isZero();
                    assertThat(tally.badSignatures.get()).isZero();
                    assertThat(tally.strangers.get()).isZero();
                    assertThat(states).isEqualTo(Map.of("succeeded", expected));
                    assertThat(dead).as("dead letters of the drill").isEmpty();
                    passed = true;
                } finally {
                    WebhookDrill.unsubscribe(gateway.baseUrl(), project(), key(), subscriptions);
                }
            }
        } finally {
            started.forEach(ServiceProcess::stop);
        }
        if (passed) {
            TestFiles.deleteTree(dir);
        }
    }
}
