package dev.visibility.gateway.openapi;

import java.net.URI;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code suite.openapi.*}: how the gateway builds {@code /api/v2/openapi.json}.
 *
 * @param fetchTimeout how long one service's {@code /v3/api-docs} may take before it is left out (a service builds its document on the first request)
 * @param cacheTtl how long a complete merged document is served before it is rebuilt
 * @param incompleteTtl how long a document that lacks a service's paths is served before it is retried
 * @param serverUrl the public origin written in {@code servers}; when unset, the origin of the request
 * @param warmUpAfter how long after the gateway is ready it builds the document before anyone asks
 * @param warmUpAttempts how many builds that warm-up makes at most, {@code incomplete-ttl} apart, until one is
 *                       complete (0: no warm-up; the first request builds it)
 */
@ConfigurationProperties("suite.openapi")
public record OpenApiProperties(Duration fetchTimeout, Duration cacheTtl, Duration incompleteTtl, URI serverUrl,
        Duration warmUpAfter, Integer warmUpAttempts) {

    public OpenApiProperties {
        fetchTimeout = fetchTimeout == null ? Duration.ofSeconds(10) : fetchTimeout;
        cacheTtl = cacheTtl == null ? Duration.ofMinutes(5) : cacheTtl;
        incompleteTtl = incompleteTtl == null ? Duration.ofSeconds(10) : incompleteTtl;
        warmUpAfter = warmUpAfter == null ? Duration.ofSeconds(30) : warmUpAfter;
        warmUpAttempts = warmUpAttempts == null ? 30 : warmUpAttempts;
        if (warmUpAfter.isNegative() || warmUpAttempts < 0) {
            throw new IllegalArgumentException("suite.openapi.warm-up-after and warm-up-attempts must not be negative");
        }
    }
}
