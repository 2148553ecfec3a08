package dev.visibility.webhook.support;

import java.util.List;
import java.util.Map;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Registered in the tests' {@code META-INF/spring.factories}: every test context trusts the
 * receivers' self-signed certificate, made before the context starts. All customizers are
 * equal, so the one context is shared by every test class.
 */
public class ReceiverTlsContextCustomizerFactory implements ContextCustomizerFactory {

    @Override
    public ContextCustomizer createContextCustomizer(Class<?> testClass, List<ContextConfigurationAttributes> configAttributes) {
        return new Customizer();
    }

    static final class Customizer implements ContextCustomizer {

        @Override
        public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
            context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("receiverTls", Map.of(
                    "suite.webhook.tls.trust-store", ReceiverTls.trustStore().toString(),
                    "suite.webhook.tls.trust-store-password", ReceiverTls.PASSWORD)));
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Customizer;
        }

        @Override
        public int hashCode() {
            return Customizer.class.hashCode();
        }
    }
}
