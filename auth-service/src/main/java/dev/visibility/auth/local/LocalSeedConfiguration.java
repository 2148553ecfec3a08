package dev.visibility.auth.local;

import java.nio.file.Path;

import dev.visibility.auth.accounts.AccountRepository;
import dev.visibility.auth.keys.ApiKeyService;
import dev.visibility.auth.members.MemberTokens;
import dev.visibility.auth.signin.MemberCredentials;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.ObjectMapper;

/** In local mode only: seed the demo account on the first start; later starts find data and do nothing. */
@Configuration(proxyBeanMethods = false)
@Profile("local")
@ConditionalOnProperty(prefix = "suite.local", name = "seed-enabled", havingValue = "true", matchIfMissing = true)
class LocalSeedConfiguration {

    private static final Logger log = LoggerFactory.getLogger(LocalSeedConfiguration.class);

    @Bean
    LocalSeeder localSeeder(JdbcClient jdbc, AccountRepository accounts, ApiKeyService keys, MemberTokens memberTokens,
            MemberCredentials memberCredentials, TransactionTemplate tx, ObjectMapper mapper, LocalSeedProperties properties) {
        return new LocalSeeder(jdbc, accounts, keys, memberTokens, memberCredentials, tx, mapper, properties.demo());
    }

    @Bean
    ApplicationRunner localSeedRunner(LocalSeeder seeder, LocalSeedProperties properties) {
        return arguments -> {
            Path file = properties.seedPath();
            seeder.seedIfEmpty(file).ifPresentOrElse(
                    credentials -> {
                        if (file == null) {
                            log.warn("Seeded local demo account {}; suite.local.seed-file is not set, so its credentials are shown nowhere",
                                    credentials.accountId());
                        } else {
                            log.info("Seeded local demo account {}; credentials written to {}", credentials.accountId(),
                                    file.toAbsolutePath());
                        }
                    },
                    () -> log.info("Accounts exist already; local seeding skipped"));
        };
    }
}
