package dev.visibility.auth.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.UUID;

import dev.visibility.auth.accounts.AccountRepository;
import dev.visibility.auth.accounts.MemberAccess;
import dev.visibility.auth.keys.ApiKeyProperties;
import dev.visibility.auth.keys.ApiKeyRepository;
import dev.visibility.auth.keys.ApiKeyService;
import dev.visibility.auth.members.MemberTokens;
import dev.visibility.auth.secrets.Secrets;
import dev.visibility.auth.signin.MemberCredentials;
import dev.visibility.auth.config.JdbcOutbox;
import dev.visibility.platform.db.DatabaseWakeups;
import dev.visibility.platform.testing.SharedInfrastructure;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * "On startup, when no account exists, seed; on later starts do nothing", proved on a schema of
 * its own (migrated by the service's Flyway scripts), since the shared test schema always holds
 * other tests' accounts.
 */
class LocalSeederFirstStartTest {

    @TempDir
    Path directory;

    private JdbcClient db;
    private LocalSeeder seeder;
    private ApiKeyRepository keys;
    private MemberTokens memberTokens;

    @BeforeEach
    void freshSchema() {
        String schema = "auth_seed_" + UUID.randomUUID().toString().replace("-", "");
        Flyway.configure()
                .dataSource(SharedInfrastructure.jdbcUrl(), SharedInfrastructure.USER, SharedInfrastructure.PASSWORD)
                .schemas(schema).defaultSchema(schema)
                .locations("classpath:db/migration", "classpath:db/platform")
                .load().migrate();
        DriverManagerDataSource dataSource = new DriverManagerDataSource(
                SharedInfrastructure.jdbcUrl() + (SharedInfrastructure.jdbcUrl().contains("?") ? "&" : "?") + "currentSchema=" + schema,
                SharedInfrastructure.USER, SharedInfrastructure.PASSWORD);
        db = JdbcClient.create(dataSource);
        TransactionTemplate tx = new TransactionTemplate(new JdbcTransactionManager(dataSource));
        JsonMapper mapper = JsonMapper.builder().build();
        AccountRepository accounts = new AccountRepository(db);
        keys = new ApiKeyRepository(db);
        memberTokens = new MemberTokens(db);
        ApiKeyService service = new ApiKeyService(keys, new MemberAccess(accounts), new JdbcOutbox(db, mapper, new dev.visibility.platform.tracing.TraceContexts(io.micrometer.observation.ObservationRegistry.NOOP),
                DatabaseWakeups.inProcess()), tx,
                new ApiKeyProperties(null));
        seeder = new LocalSeeder(db, accounts, service, memberTokens,
                new MemberCredentials(db, PasswordEncoderFactories.createDelegatingPasswordEncoder()), tx, mapper);
    }

    private long count(String table) {
        return db.sql("SELECT count(*) FROM " + table).query(Long.class).single();
    }

    @Test
    void firstStartSeedsAndLaterStartsDoNothing() throws Exception {
        Path first = directory.resolve("first.json");
        Optional<SeedCredentials> seeded = seeder.seedIfEmpty(first);
        assertThat(seeded).isPresent();
        assertThat(Files.readString(first)).contains(seeded.get().apiKey(), seeded.get().adminToken());
        assertThat(keys.findActiveByHash(Secrets.sha256Hex(seeded.get().apiKey())).orElseThrow())
                .satisfies(key -> assertThat(key.projectId().toString()).isEqualTo(seeded.get().projectId()));
        assertThat(memberTokens.findActive(Secrets.sha256Hex(seeded.get().adminToken()))).isPresent();
        assertThat(count("accounts")).isOne();
        assertThat(count("projects")).isEqualTo(2);
        // every key creation is published on auth.keys, seeded ones included: the two all-scopes keys
        // and the demo project's key with the default scopes (issue 19)
        assertThat(count("outbox")).isEqualTo(3);

        Path later = directory.resolve("later.json");
        assertThat(seeder.seedIfEmpty(later)).isEmpty();
        assertThat(later).doesNotExist();
        assertThat(count("accounts")).isOne();
        assertThat(count("api_keys")).isEqualTo(3);
    }

    @Test
    void unwritableSeedFileLeavesNoDataSoTheNextStartSeedsAgain() throws Exception {
        Path blocker = Files.writeString(directory.resolve("a-file"), "not a directory");
        assertThatThrownBy(() -> seeder.seedIfEmpty(blocker.resolve("credentials.json"))).isInstanceOf(RuntimeException.class);
        assertThat(count("accounts")).isZero();
        assertThat(count("outbox")).isZero();

        assertThat(seeder.seedIfEmpty(directory.resolve("credentials.json"))).isPresent();
    }
}
