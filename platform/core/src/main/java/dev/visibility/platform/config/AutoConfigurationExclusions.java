package dev.visibility.platform.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Leaves auto-configurations out from an {@code EnvironmentPostProcessor}: adds them to
 * {@code spring.autoconfigure.exclude} in a property source of highest precedence, keeping every exclusion already
 * configured (the platform's defaults, a service's {@code application.yml}, another post-processor's).
 */
public final class AutoConfigurationExclusions {

    public static final String PROPERTY = "spring.autoconfigure.exclude";

    private AutoConfigurationExclusions() {
    }

    /** The exclusions the environment has now. */
    public static List<String> of(ConfigurableEnvironment environment) {
        return Binder.get(environment).bind(PROPERTY, Bindable.listOf(String.class)).orElse(List.of());
    }

    /** Adds {@code names} to the exclusions, in a property source called {@code sourceName}. */
    public static void add(ConfigurableEnvironment environment, String sourceName, List<String> names) {
        List<String> excluded = new ArrayList<>(of(environment));
        names.stream().filter(name -> !excluded.contains(name)).forEach(excluded::add);
        environment.getPropertySources().addFirst(new MapPropertySource(sourceName, Map.of(PROPERTY, String.join(",", excluded))));
    }
}
