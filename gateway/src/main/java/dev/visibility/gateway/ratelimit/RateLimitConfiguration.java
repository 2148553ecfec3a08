package dev.visibility.gateway.ratelimit;

import java.time.Clock;
import java.time.Duration;

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
            case "redis" -> new RedisRateLimiter(redis.getObject(), properties.window(), Clock.systemUTC(),
                    Duration.ofSeconds(1));
            default -> throw new IllegalStateException("suite.rate-limit.store must be 'local' or 'redis'");
        };
    }
}
