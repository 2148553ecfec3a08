package dev.visibility.platform.web.idempotency;

import java.time.Duration;

import dev.visibility.platform.cursor.CursorProperties;
import io.r2dbc.spi.ConnectionFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.r2dbc.core.DatabaseClient;

/**
 * {@code Idempotency-Key} for the POSTs of every WebFlux service with a database (issue 22); the
 * answers are kept in the service's own PostgreSQL for {@code suite.idempotency.lifetime} (24 h).
 */
@AutoConfiguration(afterName = {"org.springframework.boot.r2dbc.autoconfigure.R2dbcAutoConfiguration",
        "org.springframework.boot.data.r2dbc.autoconfigure.DataR2dbcAutoConfiguration"})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnBean(ConnectionFactory.class)
@ConditionalOnProperty(prefix = "suite.cursor", name = "secret")
@EnableConfigurationProperties(CursorProperties.class)
public class IdempotencyAutoConfiguration {

    @Bean
    IdempotencyKeys idempotencyKeys(DatabaseClient db, CursorProperties cursor,
            org.springframework.core.env.Environment environment) {
        Duration lifetime = environment.getProperty("suite.idempotency.lifetime", Duration.class, Duration.ofHours(24));
        Duration abandoned = environment.getProperty("suite.idempotency.abandoned-after", Duration.class,
                Duration.ofMinutes(1));
        return new IdempotencyKeys(db, cursor.secret(), lifetime, abandoned);
    }

    @Bean
    @ConditionalOnProperty(prefix = "suite.idempotency", name = "enabled", havingValue = "true", matchIfMissing = true)
    IdempotencyWebFilter idempotencyWebFilter(IdempotencyKeys keys) {
        return new IdempotencyWebFilter(keys);
    }
}
