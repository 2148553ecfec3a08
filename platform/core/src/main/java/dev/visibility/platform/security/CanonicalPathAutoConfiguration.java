package dev.visibility.platform.security;

import dev.visibility.platform.error.reactive.ReactiveErrorWriter;
import dev.visibility.platform.error.servlet.ServletErrorWriter;
import dev.visibility.platform.security.reactive.CanonicalPathWebFilter;
import dev.visibility.platform.security.servlet.CanonicalPathFilter;
import dev.visibility.platform.web.PlatformWebAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * Every web application of the suite (the gateway and each service) refuses a request path that
 * is not in canonical form before its security chain and routing see it (issue 15).
 */
@AutoConfiguration(after = PlatformWebAutoConfiguration.class)
public class CanonicalPathAutoConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    static class Reactive {

        @Bean
        CanonicalPathWebFilter canonicalPathWebFilter(ReactiveErrorWriter writer) {
            return new CanonicalPathWebFilter(writer);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    static class Servlet {

        @Bean
        FilterRegistrationBean<CanonicalPathFilter> canonicalPathFilter(ServletErrorWriter writer) {
            FilterRegistrationBean<CanonicalPathFilter> registration = new FilterRegistrationBean<>(new CanonicalPathFilter(writer));
            registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
            registration.addUrlPatterns("/*");
            return registration;
        }
    }
}
