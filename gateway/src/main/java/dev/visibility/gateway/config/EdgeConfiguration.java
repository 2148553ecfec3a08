package dev.visibility.gateway.config;

import dev.visibility.gateway.auth.EdgeAuthProperties;
import dev.visibility.platform.security.InternalTokenMinter;
import dev.visibility.platform.security.InternalTokenProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({InternalTokenProperties.class, EdgeAuthProperties.class})
class EdgeConfiguration {

    @Bean
    InternalTokenMinter internalTokenMinter(InternalTokenProperties properties) {
        return new InternalTokenMinter(properties);
    }
}
