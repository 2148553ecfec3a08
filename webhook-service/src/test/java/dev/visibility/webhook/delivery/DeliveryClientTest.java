package dev.visibility.webhook.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import dev.visibility.webhook.config.WebhookProperties;
import dev.visibility.webhook.delivery.DeliveryHttpClient.Outcome;
import dev.visibility.webhook.destinations.AddressPolicy;
import dev.visibility.webhook.destinations.DestinationGuard;
import dev.visibility.webhook.subscriptions.CreateWebhookRequest;
import dev.visibility.webhook.subscriptions.SubscriptionValidator;
import dev.visibility.webhook.support.Receiver;
import dev.visibility.webhook.support.Receiver.Answer;
import dev.visibility.webhook.support.ReceiverTls;
import org.junit.jupiter.api.Test;

/**
 * The delivery client against a real HTTPS receiver: the SSRF guard again at delivery time on
 * the address actually connected to (DNS rebinding included), TLS host-name verification, no
 * redirects, and {@code Retry-After} parsing.
 */
class DeliveryClientTest {

    private static final byte[] BODY = "{\"event\":\"action.created\"}".getBytes(StandardCharsets.UTF_8);

    private static WebhookProperties properties(boolean allowLoopback) {
        return new WebhookProperties("unused", allowLoopback, false, null,
                new WebhookProperties.Delivery(Duration.ofSeconds(3), null, null, null, null, null, null, null, null, null, null, null),
                new WebhookProperties.Tls(ReceiverTls.trustStore().toString(), ReceiverTls.PASSWORD), null, null);
    }

    private static Outcome post(DeliveryHttpClient client, String url) {
        return client.post(new DeliveryHttpClient.Request(url, BODY, "action.created", "00", UUID.randomUUID(), null))
                .block(Duration.ofSeconds(10));
    }

    private static InetAddress[] named(String host, String address) throws UnknownHostException {
        return new InetAddress[] {InetAddress.getByAddress(host, InetAddress.getByName(address).getAddress())};
    }

    @Test
    void aLoopbackDestinationIsRefusedAtDeliveryTimeWhenLoopbackIsNotAllowed() {
        DeliveryHttpClient client = new DeliveryHttpClient(properties(false), new DestinationGuard(new AddressPolicy(false)));
        try (Receiver receiver = Receiver.https()) {
            Outcome outcome = post(client, receiver.url("/internal"));
            assertThat(outcome.errorClass()).isEqualTo(DeliveryHttpClient.BLOCKED_ADDRESS);
            assertThat(outcome.httpStatus()).isNull();
            assertThat(outcome.succeeded()).isFalse();
            assertThat(receiver.received()).isEmpty();
        } finally {
            client.destroy();
        }
    }

    @Test
    void aHostThatRebindsToAnInternalAddressAfterSubscribingIsNotConnectedTo() {
        // the first lookup (subscribe time) answers a public address, every later one loopback
        AtomicInteger lookups = new AtomicInteger();
        DestinationGuard guard = new DestinationGuard(new AddressPolicy(false),
                host -> named(host, lookups.getAndIncrement() == 0 ? "93.184.215.14" : "127.0.0.1"));
        SubscriptionValidator validator = new SubscriptionValidator(guard, properties(false));
        DeliveryHttpClient client = new DeliveryHttpClient(properties(false), guard);
        try (Receiver receiver = Receiver.https()) {
            String url = "https://rebinding.example:" + receiver.port() + "/hook";
            validator.checkDestination(validator.check(new CreateWebhookRequest(url, List.of("action.created")))).block();

            Outcome outcome = post(client, url);
            assertThat(outcome.errorClass()).isEqualTo(DeliveryHttpClient.BLOCKED_ADDRESS);
            assertThat(lookups.get()).isEqualTo(2);
            assertThat(receiver.received()).isEmpty();
        } finally {
            client.destroy();
        }
    }

    @Test
    void theClientConnectsToTheCheckedAddressAndVerifiesTheHostName() {
        // a name that resolves to the receiver but that its certificate (localhost, 127.0.0.1) does not cover
        DestinationGuard guard = new DestinationGuard(new AddressPolicy(true), host -> named(host, "127.0.0.1"));
        DeliveryHttpClient client = new DeliveryHttpClient(properties(true), guard);
        try (Receiver receiver = Receiver.https()) {
            Outcome outcome = post(client, "https://not-the-certificate.example:" + receiver.port() + "/hook");
            assertThat(outcome.errorClass()).isEqualTo(DeliveryHttpClient.TLS);
            assertThat(receiver.received()).isEmpty();

            Outcome ok = post(client, receiver.url("/hook"));
            assertThat(ok.succeeded()).isTrue();
            assertThat(ok.httpStatus()).isEqualTo(200);
            assertThat(receiver.received()).hasSize(1);
        } finally {
            client.destroy();
        }
    }

    @Test
    void redirectsAreNotFollowed() {
        DeliveryHttpClient client = new DeliveryHttpClient(properties(true), new DestinationGuard(new AddressPolicy(true)));
        try (Receiver receiver = Receiver.https().answering(n -> Answer.of(302, Map.of("Location", "https://169.254.169.254/")))) {
            Outcome outcome = post(client, receiver.url("/moved"));
            assertThat(outcome.httpStatus()).isEqualTo(302);
            assertThat(outcome.errorClass()).isEqualTo(DeliveryHttpClient.HTTP_STATUS);
            assertThat(receiver.received()).hasSize(1);
        } finally {
            client.destroy();
        }
    }

    @Test
    void retryAfterIsReadAsSecondsOrAnHttpDate() {
        Instant now = Instant.parse("2026-11-22T10:00:00Z");
        assertThat(DeliveryHttpClient.retryAfter("120", now)).isEqualTo(Duration.ofSeconds(120));
        assertThat(DeliveryHttpClient.retryAfter("Sun, 22 Nov 2026 10:00:30 GMT", now)).isEqualTo(Duration.ofSeconds(30));
        assertThat(DeliveryHttpClient.retryAfter("Sun, 22 Nov 2026 09:00:00 GMT", now)).isEqualTo(Duration.ZERO);
        assertThat(DeliveryHttpClient.retryAfter("soon", now)).isNull();
        assertThat(DeliveryHttpClient.retryAfter("-5", now)).isNull();
        assertThat(DeliveryHttpClient.retryAfter(null, now)).isNull();
    }
}
