package dev.visibility.traffic.config;

import java.time.Clock;

import dev.visibility.traffic.demo.DemoProperties;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({TrafficProperties.class, DemoProperties.class})
class TrafficConfiguration {

    /** Days are UTC days everywhere (rollups, windows). */
    @Bean
    @ConditionalOnMissingBean
    Clock clock() {
        return Clock.systemUTC();
    }
}
