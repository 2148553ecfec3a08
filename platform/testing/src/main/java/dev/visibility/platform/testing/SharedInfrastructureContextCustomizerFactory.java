package dev.visibility.platform.testing;

import java.util.List;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Registered in {@code META-INF/spring.factories}: every Spring test context of a module that
 * has platform-testing on its test classpath points at the shared broker and database. All
 * customizers are equal, so Spring's context cache reuses contexts across test classes.
 */
public class SharedInfrastructureContextCustomizerFactory implements ContextCustomizerFactory {

    @Override
    public ContextCustomizer createContextCustomizer(Class<?> testClass, List<ContextConfigurationAttributes> configAttributes) {
        return new Customizer();
    }

    static final class Customizer implements ContextCustomizer {

        private static final String SOURCE = "sharedTestInfrastructure";
        private static final String INLINED = "Inlined Test Properties";

        @Override
        public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
            MutablePropertySources sources = context.getEnvironment().getPropertySources();
            MapPropertySource source = new MapPropertySource(SOURCE, SharedInfrastructure.springProperties());
            // below a test's own inlined properties, above everything the application configures
            if (sources.contains(INLINED)) {
                sources.addAfter(INLINED, source);
            } else {
                sources.addFirst(source);
            }
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
