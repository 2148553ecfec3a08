package dev.visibility.platform.security;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.observation.SecurityObservationSettings;

/**
 * No Spring Security observation at all when {@code management.observations.enable.spring.security}
 * is false (platform-defaults.properties). That property alone only makes each observation a no-op:
 * Spring Security still decorated every filter of its chain with an observation wrapper per request
 * (issue 24: the wrappers showed in the gateway's profile). With these settings its configuration
 * keeps the plain chain, and its authentication and authorization managers undecorated.
 */
@AutoConfiguration
@ConditionalOnClass(SecurityObservationSettings.class)
@ConditionalOnProperty(name = "management.observations.enable.spring.security", havingValue = "false")
public class SecurityObservationsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    static SecurityObservationSettings securityObservationSettings() {
        return SecurityObservationSettings.noObservations();
    }
}
