package dev.visibility.gateway.ratelimit;

import java.time.Clock;

import org.springframework.beans.factory.ObjectProvider;
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
                ReactiveStringRedisTemplate template = redis.getObject();
                yield new FallbackRateLimiter(
                        new RedisRateLimiter(template, properties.window(), Clock.systemUTC(), properties.storeTimeout()),
                        () -> template.hasKey("ratelimit:probe"),
                        new LocalRateLimiter(properties.window(), Clock.systemUTC()),
                        properties.replicas(), properties.probeInterval(), properties.storeTimeout(), Clock.systemUTC());
            }
            default -> throw new IllegalStateException("suite.rate-limit.store must be 'local' or 'redis'");
        };
    }

    /** The readiness component {@code rateLimitStore} (UP, or DEGRADED while Redis is down). */
    @Bean
    RateLimitStoreHealthIndicator rateLimitStoreHealthIndicator(RateLimiter limiter) {
        return new RateLimitStoreHealthIndicator(limiter);
    }
}
