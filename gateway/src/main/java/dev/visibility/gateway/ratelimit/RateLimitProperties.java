package dev.visibility.gateway.ratelimit;

import java.time.Duration;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Per-key rate limits (spec 7, 429; the numbers are not in the specification, they are ours).
 *
 * @param store   {@code local} (Caffeine, per replica) or {@code redis} (shared: exact across replicas)
 * @param window  the fixed window length
 * @param plans   requests per window for each plan tier
 * @param member  requests per window for a signed-in member on the account API
 * @param replicas how many gateway replicas share the limits: while Redis is down each replica
 *                admits the limit divided by this (issue 22)
 * @param storeTimeout  the longest wait for Redis before this replica counts alone
 * @param probeInterval how often Redis is asked again while it is down
 * @param storeStartTimeout how long the start waits for Redis's connection and script before
 *                this replica starts counting alone (readiness comes after it)
 */
@ConfigurationProperties("suite.rate-limit")
public record RateLimitProperties(String store, Duration window, Map<String, Integer> plans, Integer member,
        Integer replicas, Duration storeTimeout, Duration probeInterval, Duration storeStartTimeout) {

    public RateLimitProperties {
        store = store == null ? "local" : store;
        window = window == null ? Duration.ofMinutes(1) : window;
        plans = plans == null ? Map.of("free", 60, "plus", 300, "pro", 1200, "enterprise", 6000) : Map.copyOf(plans);
        member = member == null ? 300 : member;
        replicas = replicas == null ? 1 : replicas;
        storeTimeout = storeTimeout == null ? Duration.ofMillis(500) : storeTimeout;
        probeInterval = probeInterval == null ? Duration.ofSeconds(2) : probeInterval;
        storeStartTimeout = storeStartTimeout == null ? Duration.ofSeconds(5) : storeStartTimeout;
    }

    public int limitFor(String plan) {
        Integer limit = plan == null ? null : plans.get(plan);
        return limit != null ? limit : plans.getOrDefault("free", 60);
    }
}
