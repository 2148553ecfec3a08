package dev.visibility.platform.events;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;

import dev.visibility.platform.consumer.ConsumedRecord;
import dev.visibility.platform.consumer.PoisonRecord;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * A record of {@code traffic.config} (key projectId): the whole traffic configuration of one project
 * as of {@code configuredAt}: its domains (one of them primary at most) and its sensor sources, each
 * with its freshness window and the domains it is set up for. It replaces the configuration stored
 * before it; a record with an older or equal {@code configuredAt} than the stored one changes nothing
 * (records may arrive out of order). Published by the dashboard's settings and by the local demo. The
 * JSON Schema is {@code docs/events/traffic.config.schema.json}.
 */
public record TrafficConfigured(
        @NotNull UUID eventId,
        @NotNull UUID projectId,
        @NotNull Instant configuredAt,
        @NotNull @Size(max = MAX_DOMAINS) List<@NotNull @Valid Domain> domains,
        @NotNull @Size(max = MAX_SOURCES) List<@NotNull @Valid Source> sources) implements ConsumedRecord {

    public static final int MAX_DOMAINS = 50;
    public static final int MAX_SOURCES = 20;
    /** Sensor kinds; E11's {@code middlewareConnected} looks for an active {@code middleware} source. */
    public static final List<String> KINDS = List.of("middleware", "cdn", "log_drain");

    /** A domain of the project. */
    public record Domain(
            @NotNull @Size(min = 1, max = 253) @Pattern(regexp = TrafficHitObserved.HOSTNAME_PATTERN, message = "must be a domain name") String domain,
            boolean isPrimary) {
    }

    /**
     * A sensor source: its name (the {@code source} of its hits), its kind, the hours after its last
     * accepted hit during which it counts as active, and the project domains it is set up for.
     */
    public record Source(
            @NotBlank @Size(max = 100) String source,
            @Pattern(regexp = "middleware|cdn|log_drain", message = "must be middleware, cdn or log_drain") String kind,
            @NotNull @DecimalMin(value = "0", inclusive = false) @DecimalMax("8760") BigDecimal freshnessWindowHours,
            @NotNull @Size(max = MAX_DOMAINS) List<@NotNull @Pattern(regexp = TrafficHitObserved.HOSTNAME_PATTERN, message = "must be a domain name") String> domains) {
    }

    @Override
    public void validate() {
        Set<String> names = new HashSet<>();
        for (Domain domain : domains) {
            if (!names.add(domain.domain().toLowerCase(Locale.ROOT))) {
                throw new PoisonRecord("a domain repeats");
            }
        }
        if (domains.stream().filter(Domain::isPrimary).count() > 1) {
            throw new PoisonRecord("at most one domain is primary");
        }
        Set<String> sourceNames = new HashSet<>();
        for (Source source : sources) {
            if (!sourceNames.add(source.source())) {
                throw new PoisonRecord("a source repeats");
            }
            for (String domain : source.domains()) {
                if (!names.contains(domain.toLowerCase(Locale.ROOT))) {
                    throw new PoisonRecord("a source names a domain that domains does not list");
                }
            }
        }
    }
}
