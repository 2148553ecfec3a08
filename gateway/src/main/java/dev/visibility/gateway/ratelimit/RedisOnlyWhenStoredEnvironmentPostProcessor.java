package dev.visibility.gateway.ratelimit;

import java.util.List;

import dev.visibility.platform.config.AutoConfigurationExclusions;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Leaves Spring Boot's Redis auto-configuration out unless the rate limits are counted in Redis
 * ({@code suite.rate-limit.store=redis}). With the default {@code local} store nothing asks for a
 * Redis connection, yet the auto-configuration made a Lettuce client at start anyway: its event
 * executor and its timer thread (ten wake-ups a second at rest, 0.13-0.17 % of a core in the idle local
 * suite) and the classes behind them. Runs after the configuration files are read, so the store
 * set in {@code application.yml}, a profile or {@code SUITE_RATE_LIMIT_STORE} decides; exclusions
 * already configured ({@code spring.autoconfigure.exclude}) are kept.
 */
public class RedisOnlyWhenStoredEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

    static final String STORE = "suite.rate-limit.store";
    static final String EXCLUDE = AutoConfigurationExclusions.PROPERTY;

    /** Every auto-configuration of spring-boot-data-redis (its {@code AutoConfiguration.imports}). */
    static final List<String> REDIS_AUTO_CONFIGURATIONS = List.of(
            "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
            "org.springframework.boot.data.redis.autoconfigure.DataRedisReactiveAutoConfiguration",
            "org.springframework.boot.data.redis.autoconfigure.DataRedisRepositoriesAutoConfiguration",
            "org.springframework.boot.data.redis.autoconfigure.health.DataRedisHealthContributorAutoConfiguration",
            "org.springframework.boot.data.redis.autoconfigure.health.DataRedisReactiveHealthContributorAutoConfiguration",
            "org.springframework.boot.data.redis.autoconfigure.observation.LettuceObservationAutoConfiguration");

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if ("redis".equals(environment.getProperty(STORE))) {
            return;
        }
        AutoConfigurationExclusions.add(environment, "rateLimitStoreLocal", REDIS_AUTO_CONFIGURATIONS);
    }

    /** After the configuration files ({@code ConfigDataEnvironmentPostProcessor}, which runs at highest precedence + 10). */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
