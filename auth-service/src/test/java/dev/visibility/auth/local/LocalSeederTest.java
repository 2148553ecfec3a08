package dev.visibility.auth.local;

import static dev.visibility.platform.testing.Http.data;
import static dev.visibility.platform.testing.Http.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.auth.accounts.AccountRepository;
import dev.visibility.auth.accounts.Permissions;
import dev.visibility.auth.keys.ApiKeyScopes;
import dev.visibility.auth.keys.ApiKeyService;
import dev.visibility.auth.members.MemberTokens;
import dev.visibility.auth.secrets.Secrets;
import dev.visibility.auth.signin.MemberCredentials;
import dev.visibility.platform.testing.Http;
import dev.visibility.auth.support.TestAccounts;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.ObjectMapper;

/**
 * Local mode seeding (DESIGN.md, local suite): the seed file holds nine fields, only its owner may
 * read it, and the seeded key, other key and admin token work against this service at once.
 * The seeder is driven directly, so that every test class keeps one shared context.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class LocalSeederTest {

    @LocalServerPort
    int port;
    @Autowired
    JdbcClient db;
    @Autowired
    AccountRepository accounts;
    @Autowired
    ApiKeyService keys;
    @Autowired
    MemberTokens memberTokens;
    @Autowired
    MemberCredentials memberCredentials;
    @Autowired
    TransactionTemplate tx;
    @Autowired
    ObjectMapper mapper;

    @TempDir
    Path directory;

    private WebTestClient client;

    @BeforeEach
    void setUp() {
        client = Http.client(port);
    }

    @Test
    void seedWritesNineFieldsForItsOwnerOnlyAndTheCredentialsWork() throws Exception {
        Path file = directory.resolve("not/yet/there/credentials.json");
        SeedCredentials seeded = new LocalSeeder(db, accounts, keys, memberTokens, memberCredentials, tx, mapper)
                .memberEmail(UUID.randomUUID() + "@example.com").seed(file);

        Map<String, Object> written = Http.parse(Files.readString(file));
        assertThat(written.keySet()).containsExactlyInAnyOrder("accountId", "projectId", "apiKey", "otherProjectId", "otherApiKey",
                "adminToken", "defaultScopesApiKey", "memberEmail", "memberPassword");
        assertThat(written).containsEntry("apiKey", seeded.apiKey()).containsEntry("adminToken", seeded.adminToken());
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(seeded.apiKey()).matches("^svc_live_[0-9a-f]{64}$");
        assertThat(seeded.otherApiKey()).matches("^svc_live_[0-9a-f]{64}$").isNotEqualTo(seeded.apiKey());
        assertThat(seeded.adminToken()).matches("^mat_[0-9a-f]{64}$");
        assertThat(seeded.toString()).doesNotContain(seeded.apiKey(), seeded.otherApiKey(), seeded.adminToken(),
                seeded.defaultScopesApiKey(), seeded.memberPassword());
        // issue 20: the owner signs in with this email and password; only a delegating-encoder hash is stored
        assertThat(written).containsEntry("memberEmail", seeded.memberEmail()).containsEntry("memberPassword", seeded.memberPassword());
        assertThat(seeded.memberPassword()).hasSizeGreaterThanOrEqualTo(20);
        String hash = db.sql("SELECT password_hash FROM members WHERE lower(email) = lower(:email)")
                .param("email", seeded.memberEmail()).query(String.class).single();
        assertThat(hash).startsWith("{bcrypt}").doesNotContain(seeded.memberPassword());

        assertThat(lookup("api-keys", seeded.apiKey())).containsEntry("projectId", seeded.projectId())
                .containsEntry("accountId", seeded.accountId()).containsEntry("scopes", ApiKeyScopes.ALL)
                .containsEntry("features", List.of("agent-picks", "managed-agents")).containsEntry("plan", "plus")
                .containsEntry("apiAccess", true);
        // issue 19: the key without the explicit grants (spec 5.6), for contrast; both created by the owner
        Map<String, Object> defaults = lookup("api-keys", seeded.defaultScopesApiKey());
        assertThat(defaults).containsEntry("projectId", seeded.projectId()).containsEntry("scopes", ApiKeyScopes.DEFAULTS);
        assertThat(ApiKeyScopes.DEFAULTS).doesNotContain("agents.read", "agents.run");
        assertThat(lookup("api-keys", seeded.otherApiKey())).containsEntry("projectId", seeded.otherProjectId())
                .containsEntry("scopes", ApiKeyScopes.ALL).containsEntry("features", List.of());

        Map<String, Object> admin = lookup("member-tokens", seeded.adminToken());
        assertThat(admin).containsEntry("accountId", seeded.accountId());
        assertThat(lookup("api-keys", seeded.apiKey())).containsEntry("createdBy", admin.get("memberId"));
        assertThat(defaults).containsEntry("createdBy", admin.get("memberId"));
        String bearer = TestAccounts.memberBearer(UUID.fromString(seeded.accountId()), UUID.fromString((String) admin.get("memberId")));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> projects = (List<Map<String, Object>>) data(json(client.get().uri("/api/v2/account/projects")
                .header(HttpHeaders.AUTHORIZATION, bearer), 200)).get("projects");
        assertThat(projects).extracting(p -> p.get("name")).containsExactlyInAnyOrder("Demo project", "Other demo project");
        assertThat(projects).allSatisfy(p -> assertThat(p).containsEntry("permissions", Permissions.ALL));
    }

    @Test
    void fixedDemoIdsFromTheSuiteAreUsedSoOtherServicesKnowTheProjectsInAdvance() {
        UUID account = UUID.randomUUID();
        UUID project = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        UUID owner = UUID.randomUUID();
        SeedCredentials seeded = new LocalSeeder(db, accounts, keys, memberTokens, memberCredentials, tx, mapper,
                new LocalSeedProperties.DemoIds(account.toString(), project.toString(), other.toString(), owner.toString()))
                .memberEmail(UUID.randomUUID() + "@example.com").seed(directory.resolve("fixed.json"));
        // the owner's id is fixed too: agents-service's demo threads belong to the creator of the demo keys
        assertThat(lookup("api-keys", seeded.apiKey())).containsEntry("createdBy", owner.toString());
        assertThat(seeded.accountId()).isEqualTo(account.toString());
        assertThat(seeded.projectId()).isEqualTo(project.toString());
        assertThat(seeded.otherProjectId()).isEqualTo(other.toString());
        assertThat(lookup("api-keys", seeded.apiKey())).containsEntry("projectId", project.toString())
                .containsEntry("accountId", account.toString());
    }

    private Map<String, Object> lookup(String kind, String secret) {
        return json(client.get().uri("/internal/v1/" + kind + "/" + Secrets.sha256Hex(secret))
                .header(HttpHeaders.AUTHORIZATION, TestAccounts.internalBearer()), 200);
    }
}
