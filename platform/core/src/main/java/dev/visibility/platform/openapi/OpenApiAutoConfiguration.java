package dev.visibility.platform.openapi;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

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
}
