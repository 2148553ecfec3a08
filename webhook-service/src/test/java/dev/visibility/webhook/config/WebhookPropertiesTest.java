package dev.visibility.webhook.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** The key arrives as SUITE_WEBHOOK_SECRET_KEY from ./suite and the Helm chart; the defaults are the README's. */
class WebhookPropertiesTest {

    @Test
    void theSecretKeyBindsFromTheEnvironmentVariableTheSuiteAndTheChartSet() {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new SystemEnvironmentPropertySource("test-" + StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                Map.of("SUITE_WEBHOOK_SECRET_KEY", "a2V5", "SUITE_WEBHOOK_DELIVERY_TIMEOUT", "7s")));
        ConfigurationPropertySources.attach(environment);
        WebhookProperties properties = Binder.get(environment).bind("suite.webhook", WebhookProperties.class).get();
        assertThat(properties.secretKey()).isEqualTo("a2V5");
        assertThat(properties.delivery().timeout()).isEqualTo(Duration.ofSeconds(7));
    }

    @Test
    void defaultsAreTheDocumentedOnes() {
        WebhookProperties.Delivery delivery = new WebhookProperties(null, false, false, null, null, null, null, null).delivery();
        assertThat(delivery.timeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(delivery.backoffBase()).isEqualTo(Duration.ofSeconds(10));
        assertThat(delivery.backoffMax()).isEqualTo(Duration.ofMinutes(2));
        assertThat(delivery.jitter()).isEqualTo(0.2);
        assertThat(delivery.batchSize()).isEqualTo(250);
        assertThat(delivery.parallelism()).isEqualTo(64);
        assertThat(delivery.maxConnections()).isEqualTo(64);
        assertThat(delivery.gather()).isEqualTo(Duration.ofMillis(50));
    }
}
