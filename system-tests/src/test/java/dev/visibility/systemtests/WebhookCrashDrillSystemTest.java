package dev.visibility.systemtests;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.visibility.platform.testing.SharedInfrastructure;
import dev.visibility.systemtests.WebhookDrill.Publisher;
import dev.visibility.systemtests.WebhookDrill.Subscription;
import dev.visibility.systemtests.WebhookDrill.Tally;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 22, drill 1: webhook-service is killed ({@code SIGKILL}) five times, and started again on
 * its port each time, while 5,000 tracking runs are published on {@code tracking.runs} for a
 * project with 20 subscriptions to {@code search-tracking.completed} (the real path: visibility-service,
 * its outbox, {@code public.events}, webhook-service's fan-out and attempts). Every (event,
 * subscription) is delivered at least once, signed (spec 6.4.1); every repeat of a pair carries the
 * same {@code X-Service-Delivery} (spec 6.3, the receivers' de-duplication key); every delivery ends
 * {@code succeeded} and nothing is dead-lettered.
 */
@Tag("drill")
class WebhookCrashDrillSystemTest extends SystemTest {

    private static final int KILLS = 5;
    private static final Duration RECOVERY = Duration.ofMinutes(6);

    @Test
    void fiveKillsUnderLoadDeliverEveryEventToEverySubscriptionUnderOneDeliveryIdAndDeadLetterNothing() {
        int expected = WebhookDrill.EVENTS * WebhookDrill.SUBSCRIPTIONS;
        Tally tally = new Tally();
        List<String> kills = new ArrayList<>();
        try (Receiver receiver = Receiver.streaming(16, tally)) {
            List<Subscription> subscriptions = WebhookDrill.subscribe(edge.domain.baseUrl(), project(), key(), receiver);
            tally.expect(subscriptions);
            WebhookDrill.Stages stages = new WebhookDrill.Stages(SharedInfrastructure.kafkaBootstrapServers(), "visibility",
                    "webhook", subscriptions);
            try (Publisher publisher = new Publisher(SharedInfrastructure.kafkaBootstrapServers(), project(), tally)) {
                long started = System.nanoTime();
                publisher.start();
                // the kills are spread over the publication: after 1/6, 2/6, … 5/6 of the runs are published,
                // each once the (restarted) service has made at least 2,000 more deliveries
                int readyAt = 0;
                for (int kill = 1; kill <= KILLS; kill++) {
                    publisher.awaitProgress(kill / (KILLS + 1.0), tally, readyAt, 2_000, RECOVERY, stages);
                    int published = publisher.sent();
                    int delivered = tally.delivered();
                    long killedAt = System.nanoTime();
                    edge.killWebhook();
                    edge.restartWebhook();
                    readyAt = tally.delivered();
                    kills.add("kill %d after %d runs published and %d deliveries, ready again after %.1f s".formatted(
                            kill, published, delivered, (System.nanoTime() - killedAt) / 1e9));
                }
                publisher.awaitDone(RECOVERY);
                try {
                    Waits.until("every (event, subscription) delivered", RECOVERY, tally::delivered, n -> n >= expected);
                } catch (ConditionTimeoutException e) {
                    // reported below as lost
                }
                double seconds = (System.nanoTime() - started) / 1e9;
                Map<String, Integer> states = Waits.until("no drill delivery pending", Duration.ofMinutes(1),
                        () -> WebhookDrill.deliveryStates("webhook", subscriptions), s -> !s.containsKey("pending"));
                Map<String, Integer> failedAttempts = WebhookDrill.failedAttempts("webhook", subscriptions);
                long checking = System.nanoTime();
                List<String> dead = WebhookDrill.deadLetters(SharedInfrastructure.kafkaBootstrapServers(), project(),
                        tally.runIds, subscriptions, RECOVERY);
                kills.add("dead-letter sentinels checked in %.1f s".formatted((System.nanoTime() - checking) / 1e9));
                kills.forEach(line -> System.out.println("[drill 1] " + line));
                System.out.printf("[drill 1] webhook-service killed (SIGKILL) %d times: %d subscriptions, published %d"
                        + " tracking runs (%d/s offered) = %d (event, subscription) pairs; delivered %d, POSTs %d,"
                        + " duplicates %d (under another X-Service-Delivery %d), lost %d, bad signatures %d,"
                        + " failed attempts by error class %s, deliveries by state %s, dead-lettered %d; %.0f s from the first publication%n",
                        KILLS, subscriptions.size(), publisher.acknowledged.get(), WebhookDrill.PER_SECOND, expected,
                        tally.delivered(), tally.posts.get(), tally.duplicates.get(), tally.otherDeliveryId.get(),
                        expected - tally.delivered(), tally.badSignatures.get(), failedAttempts, states, dead.size(), seconds);
                assertThat(publisher.failures).as("runs the broker did not take").isEmpty();
                assertThat(publisher.acknowledged.get()).isEqualTo(WebhookDrill.EVENTS);
                assertThat(tally.examples()).as("strangers, bad signatures, repeats under another id").isEmpty();
                assertThat(tally.delivered()).as("(event, subscription) pairs delivered").isEqualTo(expected);
                assertThat(tally.otherDeliveryId.get()).isZero();
                assertThat(tally.badSignatures.get()).isZero();
                assertThat(tally.strangers.get()).isZero();
                // one delivery per (event, subscription), all succeeded: none failed (= dead-lettered) or cancelled
                assertThat(states).isEqualTo(Map.of("succeeded", expected));
                assertThat(dead).as("dead letters of the drill").isEmpty();
            } finally {
                WebhookDrill.unsubscribe(edge.domain.baseUrl(), project(), key(), subscriptions);
            }
        }
    }
}
