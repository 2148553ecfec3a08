package dev.visibility.platform.config;

import java.util.List;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Leaves Spring Boot's OpenTelemetry logging auto-configuration out unless log records are exported over OTLP
 * ({@code management.opentelemetry.logging.export.otlp.endpoint} set). The services log to standard output
 * (docs/operations.md) and export traces, not logs; yet the auto-configuration made an OpenTelemetry logger provider
 * whose batch processor's thread woke every second to export nothing: in the idle local suite 1.5 wake-ups a second a
 * JVM (bench/ServiceStart.md, session 54). Runs after the configuration files are read, so an endpoint set in
 * {@code application.yml}, a profile or the environment ({@code MANAGEMENT_OPENTELEMETRY_LOGGING_EXPORT_OTLP_ENDPOINT})
 * keeps it.
 */
public class OpenTelemetryLogsOnlyWhenExportedEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

    static final String ENDPOINT = "management.opentelemetry.logging.export.otlp.endpoint";
    static final String LOGGING_AUTO_CONFIGURATION =
            "org.springframework.boot.opentelemetry.autoconfigure.logging.OpenTelemetryLoggingAutoConfiguration";
    static final String SOURCE_NAME = "openTelemetryLogsNotExported";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        String endpoint = environment.getProperty(ENDPOINT);
        if (endpoint == null || endpoint.isBlank()) {
            AutoConfigurationExclusions.add(environment, SOURCE_NAME, List.of(LOGGING_AUTO_CONFIGURATION));
        }
    }

    /** After the configuration files ({@code ConfigDataEnvironmentPostProcessor}, which runs at highest precedence + 10). */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
