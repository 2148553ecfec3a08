package dev.visibility.auth.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import dev.visibility.auth.accounts.AccountRepository;
import dev.visibility.auth.accounts.MemberRole;
import dev.visibility.auth.accounts.Plan;
import dev.visibility.auth.keys.ApiKeyScopes;
import dev.visibility.auth.keys.ApiKeyService;
import dev.visibility.auth.keys.ApiKeyService.CreatedApiKey;
import dev.visibility.auth.members.MemberTokens;
import dev.visibility.auth.secrets.Secrets;
import dev.visibility.auth.signin.MemberCredentials;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.ObjectMapper;

/**
 * Creates the local demo: one Plus account, its owner, "Demo project" (features agent-picks and
 * managed-agents) and "Other demo project" (to prove isolation), a key with every scope of spec 5.5
 * for each (explicit grants included), a key of the demo project with the default scopes (no
 * explicit grants, for contrast: E8 to E10 refuse it with missing_scope), all created by the owner,
 * a long-lived member token for the account API, and a random password for the owner (sign-in). Everything, the seed file
 * included, happens in one transaction: a file that cannot be written leaves no data behind, so
 * the next start tries again.
 */
public class LocalSeeder {

    /** The demo owner's email; the password is random, written to the seed file only. */
    static final String MEMBER_EMAIL = "admin@example.com";
    static final Duration ADMIN_TOKEN_LIFETIME = Duration.ofDays(3650);
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    // one seeder at a time across replicas sharing the database
    private static final long LOCK_KEY = 0x6175746873656564L;

    private final JdbcClient jdbc;
    private final AccountRepository accounts;
    private final ApiKeyService keys;
    private final MemberTokens memberTokens;
    private final MemberCredentials memberCredentials;
    private final TransactionTemplate tx;
    private final ObjectMapper mapper;
    private final LocalSeedProperties.DemoIds demoIds;
    private String memberEmail = MEMBER_EMAIL;

    public LocalSeeder(JdbcClient jdbc, AccountRepository accounts, ApiKeyService keys, MemberTokens memberTokens,
            MemberCredentials memberCredentials, TransactionTemplate tx, ObjectMapper mapper) {
        this(jdbc, accounts, keys, memberTokens, memberCredentials, tx, mapper, null);
    }

    /** With fixed ids for the demo account and projects (any of them may be blank). */
    public LocalSeeder(JdbcClient jdbc, AccountRepository accounts, ApiKeyService keys, MemberTokens memberTokens,
            MemberCredentials memberCredentials, TransactionTemplate tx, ObjectMapper mapper,
            LocalSeedProperties.DemoIds demoIds) {
        this.memberCredentials = memberCredentials;
        this.demoIds = demoIds;
        this.jdbc = jdbc;
        this.accounts = accounts;
        this.keys = keys;
        this.memberTokens = memberTokens;
        this.tx = seedingTransactions(tx);
        this.mapper = mapper;
    }

    /**
     * Seeding runs once at start-up, possibly while every service of the suite starts on the same
     * few cores: it may take longer than a request's {@code Db.TIMEOUT}.
     */
    static final Duration SEEDING_LIMIT = Duration.ofSeconds(90);

    private static TransactionTemplate seedingTransactions(TransactionTemplate template) {
        TransactionTemplate seeding = new TransactionTemplate(template.getTransactionManager(), template);
        seeding.setTimeout((int) SEEDING_LIMIT.toSeconds());
        return seeding;
    }

    /** Another email for the demo owner (an email signs in one member only: tests that seed again use their own). */
    public LocalSeeder memberEmail(String email) {
        this.memberEmail = email;
        return this;
    }

    /** Seeds when no account exists yet; answers the credentials, or empty when data was already there. */
    public Optional<SeedCredentials> seedIfEmpty(Path seedFile) {
        return tx.execute(status -> {
            lock();
            return accounts.anyAccountExists() ? Optional.<SeedCredentials>empty() : Optional.of(createDemo(seedFile));
        });
    }

    /** Seeds a demo account whatever exists already. */
    public SeedCredentials seed(Path seedFile) {
        return tx.execute(status -> {
            lock();
            return createDemo(seedFile);
        });
    }

    private void lock() {
        jdbc.sql("SELECT 1 FROM (SELECT pg_advisory_xact_lock(:key)) AS locked").param("key", LOCK_KEY).query(Integer.class).single();
    }

    private SeedCredentials createDemo(Path seedFile) {
        LocalSeedProperties.DemoIds ids = demoIds == null ? new LocalSeedProperties.DemoIds(null, null, null) : demoIds;
        UUID accountId = accounts.createAccount(LocalSeedProperties.DemoIds.idOr(ids.accountId()), "Demo account", Plan.PLUS);
        UUID ownerId = accounts.createMember(LocalSeedProperties.DemoIds.idOr(ids.memberId()), accountId,
                memberEmail, "Local admin", MemberRole.OWNER);
        CreatedApiKey demo = demoProject(LocalSeedProperties.DemoIds.idOr(ids.projectId()), accountId, ownerId,
                "Demo project", List.of("agent-picks", "managed-agents"));
        CreatedApiKey defaults = keys.create(demo.projectId(), "Local demo key (default scopes)", null, ownerId);
        CreatedApiKey other = demoProject(LocalSeedProperties.DemoIds.idOr(ids.otherProjectId()), accountId, ownerId,
                "Other demo project", List.of());
        String token = memberTokens.issue(ownerId, Instant.now().plus(ADMIN_TOKEN_LIFETIME));
        String password = Secrets.randomPassword();
        memberCredentials.setPassword(ownerId, password);
        SeedCredentials credentials = new SeedCredentials(accountId.toString(), demo.projectId().toString(),
                demo.key().key(), other.projectId().toString(), other.key().key(), token, defaults.key().key(),
                memberEmail, password);
        if (seedFile != null) {
            write(seedFile, credentials);
        }
        return credentials;
    }

    private CreatedApiKey demoProject(UUID projectId, UUID accountId, UUID ownerId, String name, List<String> features) {
        UUID created = accounts.createProject(projectId, accountId, name, features);
        return keys.create(created, "Local demo key", ApiKeyScopes.ALL, ownerId);
    }

    /** Writes the file readable by its owner only, atomically: a reader never sees half of it. */
    private void write(Path seedFile, SeedCredentials credentials) {
        try {
            Path target = seedFile.toAbsolutePath();
            Path directory = target.getParent();
            Files.createDirectories(directory);
            boolean posix = directory.getFileSystem().supportedFileAttributeViews().contains("posix");
            Path temporary = posix
                    ? Files.createTempFile(directory, ".seed-", ".tmp", PosixFilePermissions.asFileAttribute(OWNER_ONLY))
                    : Files.createTempFile(directory, ".seed-", ".tmp");
            try {
                if (!posix) {
                    temporary.toFile().setReadable(false, false);
                    temporary.toFile().setReadable(true, true);
                }
                Files.write(temporary, mapper.writerWithDefaultPrettyPrinter().writeValueAsBytes(credentials));
                Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(temporary);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not write the local seed file " + seedFile, e);
        }
    }
}
