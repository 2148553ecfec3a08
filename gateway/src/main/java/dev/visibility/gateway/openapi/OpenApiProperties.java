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
 */
@ConfigurationProperties("suite.openapi")
public record OpenApiProperties(Duration fetchTimeout, Duration cacheTtl, Duration incompleteTtl, URI serverUrl) {

    public OpenApiProperties {
        fetchTimeout = fetchTimeout == null ? Duration.ofSeconds(10) : fetchTimeout;
        cacheTtl = cacheTtl == null ? Duration.ofMinutes(5) : cacheTtl;
        incompleteTtl = incompleteTtl == null ? Duration.ofSeconds(10) : incompleteTtl;
    }
}
