package dev.visibility.platform.security;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The internal token the gateway mints for every forwarded request (DESIGN.md, request path 5).
 *
 * @param enabled   whether this application verifies internal tokens (the gateway mints them instead)
 * @param secret    HMAC-SHA256 key shared by the gateway and the services, at least 32 bytes
 * @param issuer    the {@code iss} claim
 * @param audience  the {@code aud} claim
 * @param ttl       lifetime of a minted token
 */
@ConfigurationProperties("suite.internal-token")
public record InternalTokenProperties(Boolean enabled, String secret, String issuer, String audience, Duration ttl) {

    public InternalTokenProperties {
        enabled = enabled == null || enabled;
        issuer = issuer == null ? "suite-gateway" : issuer;
        audience = audience == null ? "suite-services" : audience;
        ttl = ttl == null ? Duration.ofSeconds(60) : ttl;
    }

    public byte[] secretBytes() {
        if (secret == null || secret.getBytes(StandardCharsets.UTF_8).length < 32) {
            throw new IllegalStateException("suite.internal-token.secret must be set to at least 32 bytes");
        }
        return secret.getBytes(StandardCharsets.UTF_8);
    }
}
