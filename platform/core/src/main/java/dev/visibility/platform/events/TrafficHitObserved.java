package dev.visibility.platform.events;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.visibility.platform.consumer.ConsumedRecord;
import dev.visibility.platform.consumer.PoisonRecord;

/**
 * A record of {@code traffic.hits} (key projectId): one request a traffic sensor observed on one of
 * the project's sites, made either by an AI crawler ({@code botName}) or by a visitor an AI assistant
 * referred ({@code referrer}); exactly one of the two is set. traffic-service rolls these up per day,
 * hostname and path prefix (E4), keeps the sensor state per {@code source}, and aggregates the 404s
 * for E11. The JSON Schema is {@code docs/events/traffic.hits.schema.json}.
 *
 * <p>The schema is all the checking a record gets before {@link #validate()}, which adds what it cannot
 * say: no Bean Validation constraints here (the platform then skips Bean Validation for the type). This
 * is the suite's highest-volume topic, and the constraints repeated the schema's (its two regular
 * expressions included) for every hit: 9 % of the ingesting JVM's Java-code samples in a profile
 * (bench/TrafficBench.md, session 20).
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
        UUID eventId,
        UUID projectId,
        String source,
        String hostname,
        String path,
        int status,
        String botName,
        String referrer,
        String sessionId,
        Instant observedAt) implements ConsumedRecord {

    /** A DNS hostname: dot-separated labels of letters, digits and inner hyphens, either case. */
    public static final String HOSTNAME_PATTERN =
            "[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*";
    /** How far in the future an observation may lie (sensor clocks drift); later ones are poison. */
    public static final Duration MAX_CLOCK_SKEW = Duration.ofHours(1);

    /** Not a member of the record's JSON (the topic's schema has none such): derived from {@code botName}. */
    @JsonIgnore
    public boolean isBot() {
        return botName != null;
    }

    /** Not a member of the record's JSON: derived from {@code referrer}. */
    @JsonIgnore
    public boolean isReferral() {
        return referrer != null;
    }

    /** After the schema (types, required members, lengths, the hostname's and the path's patterns, the status' range). */
    @Override
    public void validate() {
        // blank as Bean Validation's @NotBlank judged it (nothing left once trimmed): the schema's minLength counts spaces
        boolean blankSession = sessionId.trim().isEmpty();
        boolean blankSource = source.trim().isEmpty();
        if (blankSession || blankSource) {
            throw new PoisonRecord(blankSession && blankSource ? "sessionId must not be blank; source must not be blank"
                    : (blankSource ? "source" : "sessionId") + " must not be blank");
        }
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
