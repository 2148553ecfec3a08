package dev.visibility.webhook.subscriptions;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

import dev.visibility.platform.error.InvalidParameter;
import dev.visibility.webhook.config.WebhookProperties;
import dev.visibility.webhook.destinations.DestinationGuard;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The destination policy of E13, for a body {@link CreateWebhookRequest} already validated: the
 * {@code url} must be an absolute https URL without credentials or fragment (local mode also
 * accepts {@code http://localhost} and {@code http://127.0.0.1}, DESIGN.md); then its host is
 * resolved and every address checked by the {@link DestinationGuard}. Each problem is a 400
 * naming {@code url}.
 */
@Component
public class SubscriptionValidator {

    static final String DESTINATION_REFUSED = "Field 'url' must name a host that resolves only to public internet"
            + " addresses: loopback, private, link-local, carrier-grade NAT, cloud metadata and other internal"
            + " addresses are refused, and so is a host that does not resolve";

    /** A request that passed the checks that need no lookup. */
    public record Checked(String url, String host, List<String> events) {
    }

    private final DestinationGuard guard;
    private final boolean allowLocalHttp;
    private final Duration resolveTimeout;

    public SubscriptionValidator(DestinationGuard guard, WebhookProperties properties) {
        this.guard = guard;
        this.allowLocalHttp = properties.allowLocalHttp();
        this.resolveTimeout = properties.delivery().resolveTimeout();
    }

    public Checked check(CreateWebhookRequest request) {
        String host = checkUrl(request.url());
        return new Checked(request.url(), host, List.copyOf(request.events()));
    }

    /** Resolves the host off the event loop and refuses internal destinations (and hosts that do not resolve). */
    public Mono<Void> checkDestination(Checked checked) {
        return Mono.fromCallable(() -> guard.resolve(checked.host()))
                .subscribeOn(Schedulers.boundedElastic())
                .timeout(resolveTimeout)
                .onErrorMap(e -> new InvalidParameter("url", DESTINATION_REFUSED))
                .then();
    }

    private String checkUrl(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new InvalidParameter("url", "Field 'url' is not a valid URL: " + accepted());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        String host = uri.getHost();
        if (!uri.isAbsolute() || uri.isOpaque() || host == null || host.isEmpty()) {
            throw new InvalidParameter("url", "Field 'url' must be an absolute URL with a valid host name: " + accepted());
        }
        if (uri.getRawUserInfo() != null) {
            throw new InvalidParameter("url", "Field 'url' must not contain credentials");
        }
        if (uri.getRawFragment() != null) {
            throw new InvalidParameter("url", "Field 'url' must not contain a fragment");
        }
        if (uri.getPort() == 0) {
            throw new InvalidParameter("url", "Field 'url' has an invalid port");
        }
        boolean https = scheme.equals("https");
        boolean localHttp = allowLocalHttp && scheme.equals("http")
                && (host.equalsIgnoreCase("localhost") || host.equals("127.0.0.1"));
        if (!https && !localHttp) {
            throw new InvalidParameter("url", "Field 'url' must use https: " + accepted());
        }
        return host;
    }

    private String accepted() {
        return allowLocalHttp ? "an https URL, or in local mode an http://localhost or http://127.0.0.1 URL"
                : "an https URL";
    }
}
