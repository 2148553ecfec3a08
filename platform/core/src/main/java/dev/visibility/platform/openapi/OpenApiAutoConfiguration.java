package dev.visibility.platform.openapi;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * In a service with springdoc (every service: {@code GET /v3/api-docs}, merged by the gateway at
 * {@code /api/v2/openapi.json}): the response records' required fields ({@link RecordResponseFields}).
 * The springdoc defaults every service shares are in {@code platform-defaults.properties}.
 */
@AutoConfiguration
@ConditionalOnClass(name = "org.springdoc.core.configuration.SpringDocConfiguration")
public class OpenApiAutoConfiguration {

    @Bean
    RecordResponseFields recordResponseFields() {
        return new RecordResponseFields();
    }

    /** WebFlux: the document is built off the event loop ({@link OpenApiOffEventLoopWebFilter}). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    static class Reactive {

        @Bean
        OpenApiOffEventLoopWebFilter openApiOffEventLoopWebFilter() {
            return new OpenApiOffEventLoopWebFilter();
        }
    }
}
