package dev.visibility.platform.config;

import java.io.IOException;
import java.io.UncheckedIOException;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.support.ResourcePropertySource;

/**
 * Adds the platform's defaults ({@code platform-defaults.properties}) as the property source of
 * lowest precedence, so that every service shares them and any service, profile, environment
 * variable or test can override one. The database URLs are placeholders over {@code suite.db.*},
 * resolved late, so that values supplied by tests and the Helm chart take effect.
 */
public class PlatformDefaultsEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

    static final String SOURCE_NAME = "platformDefaults";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (environment.getPropertySources().contains(SOURCE_NAME)) {
            return;
        }
        try {
            environment.getPropertySources().addLast(new ResourcePropertySource(SOURCE_NAME,
                    new ClassPathResource("platform-defaults.properties", getClass().getClassLoader())));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
