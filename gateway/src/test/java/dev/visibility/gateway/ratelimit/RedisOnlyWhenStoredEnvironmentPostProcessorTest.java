package dev.visibility.gateway.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;

/**
 * Redis's auto-configuration is left out unless the rate limits are counted in Redis (gateway
 * README, "Rate limits"): with the local store no Lettuce client is made.
 */
class RedisOnlyWhenStoredEnvironmentPostProcessorTest {

    private final RedisOnlyWhenStoredEnvironmentPostProcessor processor = new RedisOnlyWhenStoredEnvironmentPostProcessor();

    private StandardEnvironment environment(Map<String, Object> properties) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
        processor.postProcessEnvironment(environment, new SpringApplication());
        return environment;
    }

    private static List<String> excluded(StandardEnvironment environment) {
        String value = environment.getProperty(RedisOnlyWhenStoredEnvironmentPostProcessor.EXCLUDE);
        return value == null ? List.of() : List.of(value.split(","));
    }

    @Test
    void theLocalStoreLeavesEveryRedisAutoConfigurationOutAndKeepsTheExclusionsGiven() {
        StandardEnvironment environment = environment(Map.of(
                RedisOnlyWhenStoredEnvironmentPostProcessor.STORE, "local",
                RedisOnlyWhenStoredEnvironmentPostProcessor.EXCLUDE, "com.example.OneAutoConfiguration,com.example.Two"));
        assertThat(excluded(environment)).containsExactlyInAnyOrderElementsOf(concat(
                List.of("com.example.OneAutoConfiguration", "com.example.Two"),
                RedisOnlyWhenStoredEnvironmentPostProcessor.REDIS_AUTO_CONFIGURATIONS));
    }

    @Test
    void noStoreSetIsTheLocalStore() {
        assertThat(excluded(environment(Map.of())))
                .containsExactlyInAnyOrderElementsOf(RedisOnlyWhenStoredEnvironmentPostProcessor.REDIS_AUTO_CONFIGURATIONS);
    }

    @Test
    void theRedisStoreKeepsRedisAutoConfigured() {
        StandardEnvironment environment = environment(Map.of(RedisOnlyWhenStoredEnvironmentPostProcessor.STORE, "redis",
                RedisOnlyWhenStoredEnvironmentPostProcessor.EXCLUDE, "com.example.OneAutoConfiguration"));
        assertThat(excluded(environment)).containsExactly("com.example.OneAutoConfiguration");
        assertThat(environment.getPropertySources().contains("rateLimitStoreLocal")).isFalse();
    }

    @Test
    void theListIsEveryAutoConfigurationSpringBootsRedisModuleDeclares() throws IOException {
        // so that an upgrade that adds or renames one cannot leave a Redis client behind unnoticed
        List<String> declared = new ArrayList<>();
        for (URL url : Collections.list(getClass().getClassLoader()
                .getResources("META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports"))) {
            try (InputStream in = url.openStream()) {
                new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                        .map(String::strip)
                        .filter(line -> line.startsWith("org.springframework.boot.data.redis."))
                        .forEach(declared::add);
            }
        }
        assertThat(declared).containsExactlyInAnyOrderElementsOf(RedisOnlyWhenStoredEnvironmentPostProcessor.REDIS_AUTO_CONFIGURATIONS);
    }

    @Test
    void theRedisStoreWithoutARedisClientFailsTheStartSayingWhy() {
        // what a jar whose Spring AOT code was generated for the local store meets with store=redis
        RateLimitProperties redis = new RateLimitProperties("redis", null, null, null, null, null, null, null);
        assertThatThrownBy(() -> new RateLimitConfiguration().rateLimiter(redis,
                new StaticListableBeanFactory().getBeanProvider(ReactiveStringRedisTemplate.class)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("suite.rate-limit.store=redis")
                .hasMessageContaining("SUITE_AOT=no");
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
