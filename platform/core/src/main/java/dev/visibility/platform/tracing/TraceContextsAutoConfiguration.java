package dev.visibility.platform.tracing;

import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** {@link TraceContexts} over the service's observation registry (none: nothing is traced). */
@AutoConfiguration(afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
public class TraceContextsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    TraceContexts traceContexts(ObjectProvider<ObservationRegistry> observations) {
        return new TraceContexts(observations.getIfUnique(() -> ObservationRegistry.NOOP));
    }
}
