package dev.visibility.outcomes.config;

import dev.visibility.outcomes.demo.DemoProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({OutcomesProperties.class, DemoProperties.class})
class OutcomesConfiguration {
}
