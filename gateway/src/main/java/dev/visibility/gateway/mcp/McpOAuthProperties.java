package dev.visibility.gateway.mcp;

import java.net.URI;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * OAuth access tokens on {@code /api/mcp} (DESIGN.md "MCP and OAuth"): {@code suite.mcp.oauth.*}.
 * Without {@code jwk-set-uri} no OAuth token is accepted (every one is 401).
 *
 * @param jwkSetUri     auth-service's JWKS (the keys that sign access tokens)
 * @param issuer        the {@code iss} tokens must carry: the public origin (default {@code suite.mcp.public-origin})
 * @param audience      the {@code aud} tokens must contain: the MCP resource URL (default {@code <issuer>/api/mcp})
 * @param jwksTimeout   time-out of one JWKS fetch
 * @param jwksCacheTtl  how long a fetched JWKS is used before it is fetched again
 * @param jwksMinRefresh the shortest time between two fetches caused by a token whose key is not in the set
 *                      (so that tokens with made-up key ids cannot make the gateway hammer auth-service)
 * @param clockSkew     tolerance on {@code exp} and {@code nbf}
 */
@ConfigurationProperties("suite.mcp.oauth")
public record McpOAuthProperties(URI jwkSetUri, String issuer, String audience, Duration jwksTimeout,
        Duration jwksCacheTtl, Duration jwksMinRefresh, Duration clockSkew) {

    public McpOAuthProperties {
        jwksTimeout = jwksTimeout == null ? Duration.ofSeconds(2) : jwksTimeout;
        jwksCacheTtl = jwksCacheTtl == null ? Duration.ofMinutes(5) : jwksCacheTtl;
        jwksMinRefresh = jwksMinRefresh == null ? Duration.ofSeconds(10) : jwksMinRefresh;
        clockSkew = clockSkew == null ? Duration.ofSeconds(30) : clockSkew;
    }

    public boolean enabled() {
        return jwkSetUri != null;
    }
}
