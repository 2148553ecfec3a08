package dev.visibility.platform.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * OpenTelemetry's logger provider (and the thread of its batch processor) is made only when log records are exported
 * over OTLP; the exclusions already configured are kept.
 */
class OpenTelemetryLogsOnlyWhenExportedEnvironmentPostProcessorTest {

    private static StandardEnvironment processed(Map<String, Object> properties) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
        new OpenTelemetryLogsOnlyWhenExportedEnvironmentPostProcessor().postProcessEnvironment(environment, new SpringApplication());
        return environment;
    }

    @Test
    void withoutAnEndpointTheLoggingAutoConfigurationIsLeftOutBesideTheExclusionsGiven() {
        StandardEnvironment environment = processed(Map.of(AutoConfigurationExclusions.PROPERTY,
                "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration,com.example.Other"));
        assertThat(AutoConfigurationExclusions.of(environment)).containsExactly(
                "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration", "com.example.Other",
                OpenTelemetryLogsOnlyWhenExportedEnvironmentPostProcessor.LOGGING_AUTO_CONFIGURATION);
    }

    @Test
    void aBlankEndpointIsNoEndpoint() {
        StandardEnvironment environment = processed(Map.of(OpenTelemetryLogsOnlyWhenExportedEnvironmentPostProcessor.ENDPOINT, " "));
        assertThat(AutoConfigurationExclusions.of(environment))
                .containsExactly(OpenTelemetryLogsOnlyWhenExportedEnvironmentPostProcessor.LOGGING_AUTO_CONFIGURATION);
    }

    @Test
    void anEndpointKeepsTheLoggingAutoConfiguration() {
        StandardEnvironment environment = processed(Map.of(
                OpenTelemetryLogsOnlyWhenExportedEnvironmentPostProcessor.ENDPOINT, "http://collector:4318/v1/logs",
                AutoConfigurationExclusions.PROPERTY, "com.example.Other"));
        assertThat(AutoConfigurationExclusions.of(environment)).containsExactly("com.example.Other");
        assertThat(environment.getPropertySources().contains(OpenTelemetryLogsOnlyWhenExportedEnvironmentPostProcessor.SOURCE_NAME))
                .isFalse();
    }

    @Test
    void theNameIsTheAutoConfigurationSpringBootDeclares() throws IOException {
        // so that an upgrade that renames it cannot bring the idle thread back unnoticed
        List<String> declared = new ArrayList<>();
        for (URL url : Collections.list(getClass().getClassLoader()
                .getResources("META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports"))) {
            try (InputStream in = url.openStream()) {
                new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::strip).forEach(declared::add);
            }
        }
        assertThat(declared).contains(OpenTelemetryLogsOnlyWhenExportedEnvironmentPostProcessor.LOGGING_AUTO_CONFIGURATION);
    }
}
