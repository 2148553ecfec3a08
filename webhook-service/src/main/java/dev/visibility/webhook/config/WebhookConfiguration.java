package dev.visibility.webhook.config;

import dev.visibility.webhook.delivery.DeliveryHooks;
import dev.visibility.webhook.delivery.DeliveryHttpClient;
import dev.visibility.webhook.delivery.RetrySchedule;
import dev.visibility.webhook.destinations.AddressPolicy;
import dev.visibility.webhook.destinations.DestinationGuard;
import dev.visibility.webhook.secrets.SecretCipher;
import dev.visibility.webhook.secrets.SigningKeys;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The service's own beans; a missing or malformed {@code suite.webhook.secret-key} fails the start with a clear message. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(WebhookProperties.class)
class WebhookConfiguration {

    @Bean
    SecretCipher secretCipher(WebhookProperties properties) {
        return SecretCipher.fromBase64Key(properties.secretKey());
    }

    @Bean
    SigningKeys signingKeys(SecretCipher cipher) {
        return new SigningKeys(cipher);
    }

    @Bean
    DestinationGuard destinationGuard(WebhookProperties properties) {
        return new DestinationGuard(new AddressPolicy(properties.allowLoopback()));
    }

    @Bean
    DeliveryHttpClient deliveryHttpClient(WebhookProperties properties, DestinationGuard guard,
            ObjectProvider<MeterRegistry> meters) {
        return new DeliveryHttpClient(properties, guard, meters.getIfUnique());
    }

    @Bean
    RetrySchedule retrySchedule(WebhookProperties properties) {
        return new RetrySchedule(properties.delivery());
    }

    @Bean
    DeliveryHooks deliveryHooks() {
        return new DeliveryHooks();
    }
}
