package dev.visibility.gateway.auth;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * @param keyPrefix       the fixed prefix of API keys ({@code <prefix>_live_<64 hex>})
 * @param positiveTtl     how long a known credential stays cached (revocations evict at once besides)
 * @param negativeTtl     how long an unknown credential hash stays cached as unknown
 * @param lookupTimeout   time-out of one lookup call to auth-service
 * @param cacheSize       maximum cached credentials
 * @param failedAuthenticationsPerMinute failed authentications one client address may make per minute
 *                        before its unknown credentials are refused with 429 without a lookup
 */
@ConfigurationProperties("suite.edge")
public record EdgeAuthProperties(String keyPrefix, Duration positiveTtl, Duration negativeTtl, Duration lookupTimeout,
        Long cacheSize, Integer failedAuthenticationsPerMinute) {

    public EdgeAuthProperties {
        keyPrefix = keyPrefix == null ? "svc" : keyPrefix;
        positiveTtl = positiveTtl == null ? Duration.ofSeconds(30) : positiveTtl;
        negativeTtl = negativeTtl == null ? Duration.ofSeconds(5) : negativeTtl;
        lookupTimeout = lookupTimeout == null ? Duration.ofSeconds(3) : lookupTimeout;
        cacheSize = cacheSize == null ? 100_000L : cacheSize;
        failedAuthenticationsPerMinute = failedAuthenticationsPerMinute == null ? 60 : failedAuthenticationsPerMinute;
    }
}
