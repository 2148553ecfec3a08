package dev.visibility.webhook.destinations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;

import dev.visibility.platform.error.InvalidParameter;
import dev.visibility.webhook.config.WebhookProperties;
import dev.visibility.webhook.subscriptions.CreateWebhookRequest;
import dev.visibility.webhook.subscriptions.SubscriptionValidator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The SSRF guard as it runs outside local mode (loopback not allowed): hosts that resolve to
 * loopback, private, link-local/metadata or other internal addresses are refused at subscribe
 * time with a 400 naming {@code url} (DESIGN.md, Webhook delivery). Host names resolve through a
 * fixed table here, as a DNS server under an attacker's control would answer them.
 */
class SsrfGuardTest {

    private static final Map<String, List<String>> DNS = Map.of(
            "loopback.example", List.of("127.0.0.1"),
            "loopback-v6.example", List.of("::1"),
            "private.example", List.of("10.20.30.40"),
            "metadata.example", List.of("169.254.169.254"),
            "cgnat.example", List.of("100.100.100.200"),
            "mixed.example", List.of("93.184.215.14", "10.0.0.1"),
            "public.example", List.of("93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"));

    private static InetAddress[] lookup(String host) throws UnknownHostException {
        List<String> addresses = DNS.get(host);
        if (addresses == null) {
            // literals (and localhost) resolve as the system resolves them
            return InetAddress.getAllByName(host);
        }
        InetAddress[] out = new InetAddress[addresses.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = InetAddress.getByAddress(host, InetAddress.getByName(addresses.get(i)).getAddress());
        }
        return out;
    }

    private final DestinationGuard guard = new DestinationGuard(new AddressPolicy(false), SsrfGuardTest::lookup);

    private final SubscriptionValidator validator = new SubscriptionValidator(guard,
            new WebhookProperties("unused", false, false, null, null, null, null, null));

    private void subscribe(String url) {
        SubscriptionValidator.Checked checked = validator.check(new CreateWebhookRequest(url, List.of("action.created")));
        validator.checkDestination(checked).block();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "https://loopback.example/hook", "https://127.0.0.1/hook", "https://127.8.9.10:8443/hook", "https://localhost/hook",
            "https://loopback-v6.example/hook", "https://[::1]/hook",
            "https://private.example/hook", "https://10.0.0.1/hook", "https://172.31.255.255/hook", "https://192.168.0.1/hook",
            "https://metadata.example/latest/meta-data/", "https://169.254.169.254/latest/meta-data/",
            "https://cgnat.example/hook", "https://[fd00:ec2::254]/hook", "https://[fe80::1]/hook",
            "https://[::ffff:127.0.0.1]/hook", "https://[64:ff9b::a00:1]/hook", "https://[2002:a00:1::]/hook",
            "https://0.0.0.0/hook", "https://mixed.example/hook", "https://does-not-resolve.invalid/hook"})
    void internalDestinationsAreRefusedWith400NamingUrl(String url) {
        assertThatThrownBy(() -> subscribe(url))
                .isInstanceOfSatisfying(InvalidParameter.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.parameter()).isEqualTo("url");
                    assertThat(e.body().error()).isEqualTo("invalid_request");
                });
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://public.example/hook", "https://93.184.215.14/hook",
            "https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/hook", "https://[64:ff9b::5db8:d70e]/hook"})
    void publicDestinationsAreAccepted(String url) {
        subscribe(url);
    }

    @Test
    void loopbackIsAcceptedOnlyWhenConfigured() throws Exception {
        DestinationGuard allowing = new DestinationGuard(new AddressPolicy(true), SsrfGuardTest::lookup);
        assertThat(allowing.resolve("loopback.example")).extracting(InetAddress::getHostAddress).containsExactly("127.0.0.1");
        assertThat(allowing.resolve("[::1]")).hasSize(1);
        // allowing loopback allows nothing else
        for (String host : List.of("private.example", "metadata.example", "cgnat.example", "mixed.example")) {
            assertThatThrownBy(() -> allowing.resolve(host)).isInstanceOf(DestinationRefused.class);
        }
    }

    @Test
    void localModeAcceptsHttpOnLocalhostAndLoopbackOnly() {
        // DESIGN.md: in local mode (and only there) http://localhost and http://127.0.0.1 URLs are accepted
        SubscriptionValidator local = new SubscriptionValidator(new DestinationGuard(new AddressPolicy(true), SsrfGuardTest::lookup),
                new WebhookProperties("unused", true, true, null, null, null, null, null));
        for (String url : List.of("http://localhost:3000/hooks", "http://127.0.0.1/hooks", "https://localhost:8443/hooks")) {
            local.checkDestination(local.check(new CreateWebhookRequest(url, List.of("action.created")))).block();
        }
        for (String url : List.of("http://public.example/hooks", "http://93.184.215.14/hooks", "http://[::1]/hooks")) {
            assertThatThrownBy(() -> local.check(new CreateWebhookRequest(url, List.of("action.created"))))
                    .isInstanceOfSatisfying(InvalidParameter.class, e -> assertThat(e.parameter()).isEqualTo("url"));
        }
        // outside local mode, http is refused even for localhost
        assertThatThrownBy(() -> validator.check(new CreateWebhookRequest("http://localhost:3000/hooks", List.of("action.created"))))
                .isInstanceOf(InvalidParameter.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"198.18.0.1", "192.0.2.1", "203.0.113.9", "224.0.0.1", "255.255.255.255", "::",
            "ff02::1", "2001:db8::1", "2001::1", "fec0::1", "100::1"})
    void reservedAndSpecialRangesAreRefused(String literal) throws Exception {
        assertThat(new AddressPolicy(true).refusal(InetAddress.getByName(literal))).isPresent();
    }
}
