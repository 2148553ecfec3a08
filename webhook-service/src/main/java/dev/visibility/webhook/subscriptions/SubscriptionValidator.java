package dev.visibility.webhook.subscriptions;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import dev.visibility.platform.error.InvalidParameter;
import dev.visibility.platform.events.EventName;
import dev.visibility.webhook.config.WebhookProperties;
import dev.visibility.webhook.destinations.DestinationGuard;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Checks the body of E13: {@code url} must be an absolute https URL without credentials or
 * fragment, at most 2048 characters (local mode also accepts {@code http://localhost} and
 * {@code http://127.0.0.1}, DESIGN.md); {@code events} must be a non-empty array of the names of
 * spec 6 without duplicates. Then the host is resolved and every address checked by the
 * {@link DestinationGuard}. Each problem is a 400 naming the field.
 */
@Component
public class SubscriptionValidator {

    static final int MAX_URL_LENGTH = 2048;

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
        if (request == null) {
            throw new InvalidParameter("url", "A JSON object with 'url' and 'events' is required");
        }
        String host = checkUrl(request.url());
        return new Checked(request.url(), host, checkEvents(request.events()));
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
        if (url == null || url.isBlank()) {
            throw new InvalidParameter("url", "Field 'url' is required: " + accepted());
        }
        if (url.length() > MAX_URL_LENGTH) {
            throw new InvalidParameter("url", "Field 'url' must have at most " + MAX_URL_LENGTH + " characters");
        }
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

    private static List<String> checkEvents(List<String> events) {
        String allowed = "one or more of " + String.join(", ", EventName.wireNames());
        if (events == null) {
            throw new InvalidParameter("events", "Field 'events' is required: an array of event names, " + allowed);
        }
        if (events.isEmpty()) {
            throw new InvalidParameter("events", "Field 'events' must not be empty: " + allowed);
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < events.size(); i++) {
            String event = events.get(i);
            if (event == null || EventName.fromWire(event).isEmpty()) {
                throw new InvalidParameter("events", "Field 'events' item " + (i + 1) + " is not an event name: " + allowed);
            }
            if (!seen.add(event)) {
                throw new InvalidParameter("events", "Field 'events' lists '" + event + "' more than once");
            }
        }
        return List.copyOf(events);
    }
}
