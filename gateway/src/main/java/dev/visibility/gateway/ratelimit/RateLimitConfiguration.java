package dev.visibility.gateway.ratelimit;

import java.time.Clock;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RateLimitProperties.class)
class RateLimitConfiguration {

    @Bean
    RateLimiter rateLimiter(RateLimitProperties properties, ObjectProvider<ReactiveStringRedisTemplate> redis) {
        return switch (properties.store()) {
            case "local" -> new LocalRateLimiter(properties.window(), Clock.systemUTC());
            case "redis" -> {
                ReactiveStringRedisTemplate template = redis.getIfAvailable();
                if (template == null) {
                    // Redis's auto-configuration is left out for the local store (RedisOnlyWhenStoredEnvironmentPostProcessor):
                    // Spring AOT code generated with the local store has no Redis beans
                    throw new IllegalStateException("suite.rate-limit.store=redis, but this gateway has no Redis client: "
                            + "its Spring AOT code was generated for the local store; start it without "
                            + "(-Dspring.aot.enabled=false, SUITE_AOT=no in ./suite)");
                }
                yield new FallbackRateLimiter(
                        new RedisRateLimiter(template, properties.window(), Clock.systemUTC(), properties.storeTimeout()),
                        () -> template.hasKey("ratelimit:probe"),
                        new LocalRateLimiter(properties.window(), Clock.systemUTC()),
                        properties.replicas(), properties.probeInterval(), properties.storeTimeout(), Clock.systemUTC());
            }
            default -> throw new IllegalStateException("suite.rate-limit.store must be 'local' or 'redis'");
        };
    }

    /**
     * Before readiness: the shared store's connection opened and its script loaded, or the replica
     * degraded at once if Redis does not answer in time (the main thread waits, no event loop).
     */
    @Bean
    ApplicationRunner rateLimitStoreWarmUp(RateLimiter limiter, RateLimitProperties properties) {
        return arguments -> limiter.warmUp(properties.storeStartTimeout()).block();
    }

    /** The readiness component {@code rateLimitStore} (UP, or DEGRADED while Redis is down). */
    @Bean
    RateLimitStoreHealthIndicator rateLimitStoreHealthIndicator(RateLimiter limiter) {
        return new RateLimitStoreHealthIndicator(limiter);
    }
}
