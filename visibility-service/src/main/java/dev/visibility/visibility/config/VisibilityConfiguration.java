package dev.visibility.visibility.config;

import dev.visibility.visibility.agentpicks.AgentPicksProperties;
import dev.visibility.visibility.demo.DemoProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

@Configuration(proxyBeanMethods = false)
@EnableScheduling
@EnableConfigurationProperties({VisibilityProperties.class, AgentPicksProperties.class, DemoProperties.class})
class VisibilityConfiguration {
}
