package dev.visibility.agents.config;

import dev.visibility.agents.demo.DemoProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(DemoProperties.class)
class AgentsConfiguration {
}
