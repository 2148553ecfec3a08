package dev.visibility.platform.events;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import dev.visibility.platform.consumer.ConsumedRecord;
import dev.visibility.platform.consumer.PoisonRecord;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * A record of {@code traffic.hits} (key projectId): one request a traffic sensor observed on one of
 * the project's sites, made either by an AI crawler ({@code botName}) or by a visitor an AI assistant
 * referred ({@code referrer}); exactly one of the two is set. traffic-service rolls these up per day,
 * hostname and path prefix (E4), keeps the sensor state per {@code source}, and aggregates the 404s
 * for E11. The JSON Schema is {@code docs/events/traffic.hits.schema.json}.
 *
 * @param source     the sensor that observed the hit (for example {@code cloudflare}, {@code vercel-middleware})
 * @param hostname   the requested host, without port (compared in lower case)
 * @param path       the requested path, starting with {@code /}; a query string or fragment is ignored
 * @param status     the HTTP status the site answered
 * @param botName    the crawler's name (for example {@code GPTBot}) for a bot hit, else null
 * @param referrer   the referring AI assistant (a host such as {@code chatgpt.com}, or a URL) for a referral hit, else null
 * @param sessionId  the sensor's session of the visitor or crawler (opaque)
 * @param observedAt when the request was made
 */
public record TrafficHitObserved(
        @NotNull UUID eventId,
        @NotNull UUID projectId,
        @NotBlank @Size(max = 100) String source,
        @NotNull @Size(min = 1, max = 253) @Pattern(regexp = HOSTNAME_PATTERN, message = "must be a hostname") String hostname,
        @NotNull @Size(min = 1, max = 2048) @Pattern(regexp = "/.*", flags = Pattern.Flag.DOTALL, message = "must start with /") String path,
        @Min(100) @Max(599) int status,
        @Size(min = 1, max = 100) String botName,
        @Size(min = 1, max = 2048) String referrer,
        @NotBlank @Size(max = 128) String sessionId,
        @NotNull Instant observedAt) implements ConsumedRecord {

    /** A DNS hostname: dot-separated labels of letters, digits and inner hyphens, either case. */
    public static final String HOSTNAME_PATTERN =
            "[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*";
    /** How far in the future an observation may lie (sensor clocks drift); later ones are poison. */
    public static final Duration MAX_CLOCK_SKEW = Duration.ofHours(1);

    public boolean isBot() {
        return botName != null;
    }

    public boolean isReferral() {
        return referrer != null;
    }

    @Override
    public void validate() {
        if ((botName == null) == (referrer == null)) {
            throw new PoisonRecord("exactly one of botName and referrer must be set");
        }
        if (botName != null && botName.isBlank() || referrer != null && referrer.isBlank()) {
            throw new PoisonRecord("botName and referrer must not be blank");
        }
        if (observedAt.isAfter(Instant.now().plus(MAX_CLOCK_SKEW))) {
            throw new PoisonRecord("observedAt lies more than " + MAX_CLOCK_SKEW.toHours() + " hour in the future");
        }
    }
}
