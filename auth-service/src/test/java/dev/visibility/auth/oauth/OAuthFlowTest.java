package dev.visibility.auth.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.visibility.auth.accounts.MemberRole;
import dev.visibility.auth.accounts.Permissions;
import dev.visibility.auth.accounts.Plan;
import dev.visibility.auth.signin.MemberCredentials;
import dev.visibility.auth.support.FormClient;
import dev.visibility.auth.support.FormClient.Page;
import dev.visibility.auth.support.TestAccounts;
import dev.visibility.platform.testing.Http;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Issue 20 and DESIGN.md "MCP and OAuth", against auth-service as the gateway forwards to it
 * (X-Forwarded-Proto/Host/Port of the public origin): metadata (RFC 8414) with public URLs, open
 * registration of public clients (RFC 7591), authorization code with PKCE S256 and the resource
 * indicator (RFC 8707) as audience, the consent page as project selector, JWT claims checked with
 * the published JWKS, refresh that never widens, and the bad inputs.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class OAuthFlowTest {

    static final String ORIGIN = "https://mcp-gateway.example";
    static final String RESOURCE = ORIGIN + "/api/mcp";
    static final String REDIRECT = "http://127.0.0.1:33418/callback";

    @LocalServerPort
    int port;
    @Autowired
    TestAccounts accounts;
    @Autowired
    MemberCredentials credentials;

    private FormClient browser;
    private TestAccounts.Team team;
    private UUID member;
    private String email;
    private final String password = "a long enough password";

    @BeforeEach
    void setUp() {
        browser = client();
        team = accounts.team(Plan.PLUS);
        member = accounts.member(team.accountId(), MemberRole.MEMBER);
        accounts.grant(team.projectId(), member, Permissions.PROJECT_VIEW, Permissions.SETTINGS_MANAGE);
        email = "mcp-" + UUID.randomUUID() + "@example.com";
        accounts.setEmail(member, email);
        credentials.setPassword(member, password);
    }

    private FormClient client() {
        return new FormClient("http://localhost:" + port).publicOrigin(ORIGIN)
                .header("X-Forwarded-Proto", "https").header("X-Forwarded-Host", "mcp-gateway.example")
                .header("X-Forwarded-Port", "443");
    }

    @Test
    void metadataNamesThePublicOriginEverywhere() {
        Page page = browser.get("/.well-known/oauth-authorization-server");
        assertThat(page.status()).isEqualTo(200);
        Map<String, Object> metadata = Http.parse(page.body());
        assertThat(metadata).containsEntry("issuer", ORIGIN)
                .containsEntry("authorization_endpoint", ORIGIN + "/oauth2/authorize")
                .containsEntry("token_endpoint", ORIGIN + "/oauth2/token")
                .containsEntry("registration_endpoint", ORIGIN + "/oauth2/register")
                .containsEntry("jwks_uri", ORIGIN + "/oauth2/jwks")
                .containsEntry("code_challenge_methods_supported", List.of("S256"));
        assertThat(strings(metadata.get("grant_types_supported"))).contains("authorization_code", "refresh_token");
        assertThat(strings(metadata.get("token_endpoint_auth_methods_supported"))).contains("none");
        assertThat(page.body()).doesNotContain("localhost:" + port);
    }

    @Test
    void fullFlowIssuesAJwtWithTheChosenProjectAndCapabilitiesAndRefreshNeverWidens() throws Exception {
        String clientId = register(REDIRECT);
        String verifier = verifier();
        Map<String, Object> tokens = authorize(clientId, verifier, List.of("read", "write"));
        assertThat(tokens).containsEntry("token_type", "Bearer").containsKeys("access_token", "refresh_token", "expires_in");

        JWTClaimsSet claims = verified((String) tokens.get("access_token"));
        assertThat(claims.getIssuer()).isEqualTo(ORIGIN);
        assertThat(claims.getAudience()).containsExactly(RESOURCE);
        assertThat(claims.getSubject()).isEqualTo(member.toString());
        assertThat(claims.getStringClaim("client_id")).isEqualTo(clientId);
        assertThat(claims.getStringClaim("project_id")).isEqualTo(team.projectId().toString());
        assertThat(claims.getStringListClaim("capabilities")).containsExactly("read", "write");
        assertThat(claims.getExpirationTime()).isAfter(new java.util.Date());

        // refresh: same connection, rotated refresh token, never wider than approved
        Map<String, Object> refreshed = token(Map.of("grant_type", "refresh_token", "client_id", clientId,
                "refresh_token", tokens.get("refresh_token")), 200);
        assertThat(refreshed.get("refresh_token")).isNotEqualTo(tokens.get("refresh_token"));
        assertThat(verified((String) refreshed.get("access_token")).getStringListClaim("capabilities"))
                .containsExactly("read", "write");
        assertThat(token(Map.of("grant_type", "refresh_token", "client_id", clientId,
                "refresh_token", tokens.get("refresh_token")), 400)).containsEntry("error", "invalid_grant");

        // the member loses settings.manage: the next token of the connection is read-only
        accounts.grant(team.projectId(), member, Permissions.PROJECT_VIEW);
        Map<String, Object> narrowed = token(Map.of("grant_type", "refresh_token", "client_id", clientId,
                "refresh_token", refreshed.get("refresh_token")), 200);
        assertThat(verified((String) narrowed.get("access_token")).getStringListClaim("capabilities")).containsExactly("read");
        // and getting it back does not widen a connection beyond what it holds now... nor beyond what was approved
        accounts.grant(team.projectId(), member, Permissions.PROJECT_VIEW, Permissions.SETTINGS_MANAGE);
        Map<String, Object> again = token(Map.of("grant_type", "refresh_token", "client_id", clientId,
                "refresh_token", narrowed.get("refresh_token")), 200);
        assertThat(verified((String) again.get("access_token")).getStringListClaim("capabilities"))
                .containsExactly("read", "write").doesNotContain("agent-execution");
    }

    /** Issue 20: the connection on the dashboard; revoked, its refresh token and its lookup stop at once. */
    @Test
    void revokingAConnectionOnTheDashboardStopsItsTokens() throws Exception {
        String clientId = register(REDIRECT);
        Map<String, Object> tokens = authorize(clientId, verifier(), List.of("read", "write", "agent-execution"));
        String connection = verified((String) tokens.get("access_token")).getStringClaim("connection_id");
        assertThat(connection).isNotBlank();
        Map<String, Object> active = Http.json(Http.client(port).get().uri("/internal/v1/oauth-connections/" + connection)
                .header(org.springframework.http.HttpHeaders.AUTHORIZATION, TestAccounts.internalBearer()), 200);
        assertThat(active).containsEntry("projectId", team.projectId().toString()).containsEntry("clientId", clientId)
                .containsEntry("memberId", member.toString())
                .containsEntry("capabilities", List.of("read", "write", "agent-execution"));

        Page page = browser.get("/dashboard/connections");
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("Test MCP client", clientId, "read, write, agent-execution", "active");
        Page revoked = browser.post("/dashboard/connections/" + connection + "/revoke", Map.of("_csrf", page.csrf()));
        assertThat(revoked.status()).isEqualTo(302);

        Http.error(Http.client(port).get().uri("/internal/v1/oauth-connections/" + connection)
                .header(org.springframework.http.HttpHeaders.AUTHORIZATION, TestAccounts.internalBearer()), 404);
        assertThat(token(Map.of("grant_type", "refresh_token", "client_id", clientId,
                "refresh_token", tokens.get("refresh_token")), 400)).containsEntry("error", "invalid_grant");
        assertThat(browser.get("/dashboard/connections").body()).contains("revoked");
        // a revoked connection cannot be revoked again
        assertThat(browser.post("/dashboard/connections/" + connection + "/revoke",
                Map.of("_csrf", browser.get("/dashboard/connections").csrf())).status()).isEqualTo(404);
    }

    @Test
    void memberWithoutSettingsManageIsOfferedReadOnlyAndCannotForgeWrite() {
        accounts.grant(team.projectId(), member, Permissions.PROJECT_VIEW);
        String clientId = register(REDIRECT);
        String verifier = verifier();
        Page consent = toConsent(clientId, verifier, RESOURCE);
        assertThat(consent.body()).contains(team.projectId().toString()).doesNotContain("value=\"write\"")
                .contains("need the settings.manage permission");
        Page forged = browser.post("/oauth2/authorize", consentForm(clientId, consent, List.of("read", "write")));
        assertThat(forged.status()).isEqualTo(400);
        assertThat(String.valueOf(forged.location())).doesNotContain("code=");
    }

    @Test
    void denyAnswersAccessDeniedToTheClient() {
        String clientId = register(REDIRECT);
        Page consent = toConsent(clientId, verifier(), RESOURCE);
        Map<String, Object> deny = new LinkedHashMap<>();
        deny.put("client_id", clientId);
        deny.put("state", state(consent));
        deny.put("_csrf", consent.csrf());
        Page denied = browser.post("/oauth2/authorize", deny);
        assertThat(denied.status()).isEqualTo(302);
        assertThat(denied.location()).startsWith(REDIRECT).contains("error=access_denied").doesNotContain("code=");
    }

    @Test
    void registrationRefusesUnsafeRedirectsForeignScopesAndConfidentialClients() {
        for (String redirect : List.of("javascript:alert(1)", "myapp://callback", "ftp://example.com/cb",
                "http://evil.example/cb", "https://example.com/cb#fragment")) {
            Page refused = browser.postJson("/oauth2/register", """
                    {"client_name": "bad", "redirect_uris": ["%s"], "token_endpoint_auth_method": "none"}""".formatted(redirect));
            assertThat(refused.status()).as(redirect).isEqualTo(400);
            assertThat(Http.parse(refused.body())).as(redirect).containsEntry("error", "invalid_redirect_uri");
        }
        Page scope = browser.postJson("/oauth2/register", """
                {"redirect_uris": ["%s"], "token_endpoint_auth_method": "none", "scope": "openid admin"}""".formatted(REDIRECT));
        assertThat(scope.status()).isEqualTo(400);
        assertThat(Http.parse(scope.body())).containsEntry("error", "invalid_client_metadata");
        // what the store cannot hold is refused, never a 500
        Page longName = browser.postJson("/oauth2/register", """
                {"client_name": "%s", "redirect_uris": ["%s"], "token_endpoint_auth_method": "none"}""".formatted("n".repeat(201), REDIRECT));
        assertThat(longName.status()).isEqualTo(400);
        assertThat(Http.parse(longName.body())).containsEntry("error", "invalid_client_metadata");
        Page manyRedirects = browser.postJson("/oauth2/register", """
                {"redirect_uris": ["https://example.com/%s"], "token_endpoint_auth_method": "none"}""".formatted("a".repeat(1001)));
        assertThat(manyRedirects.status()).isEqualTo(400);
        assertThat(Http.parse(manyRedirects.body())).containsEntry("error", "invalid_redirect_uri");
        Page notJson = browser.postJson("/oauth2/register", "{not json");
        assertThat(notJson.status()).isEqualTo(400);
        Page confidential = browser.postJson("/oauth2/register", """
                {"redirect_uris": ["%s"], "token_endpoint_auth_method": "client_secret_basic"}""".formatted(REDIRECT));
        assertThat(confidential.status()).isEqualTo(400);
        assertThat(Http.parse(confidential.body())).containsEntry("error", "invalid_client_metadata");
    }

    @Test
    void authorizationWithoutPkceOrWithAnotherResourceNeverGivesACode() {
        String clientId = register(REDIRECT);
        Page noPkce = browser.get("/oauth2/authorize?" + FormClient.encode(Map.of("response_type", "code",
                "client_id", clientId, "redirect_uri", REDIRECT, "scope", "openid profile email", "state", "s1",
                "resource", RESOURCE)));
        assertThat(noPkce.status()).isEqualTo(302);
        assertThat(noPkce.location()).startsWith(REDIRECT).contains("error=invalid_request").doesNotContain("code=");

        for (String resource : List.of("https://elsewhere.example/api/mcp", ORIGIN + "/api/v2", "")) {
            Map<String, Object> query = new LinkedHashMap<>(pkceQuery(clientId, verifier()));
            if (!resource.isEmpty()) {
                query.put("resource", resource);
            }
            Page other = browser.get("/oauth2/authorize?" + FormClient.encode(query));
            assertThat(other.status()).as(resource).isEqualTo(302);
            assertThat(other.location()).as(resource).startsWith(REDIRECT).contains("error=invalid_target").doesNotContain("code=");
        }
    }

    @Test
    void wrongVerifierIsInvalidGrantAndAnotherResourceAtTheTokenEndpointIsInvalidTarget() {
        String clientId = register(REDIRECT);
        String verifier = verifier();
        String code = code(clientId, verifier, List.of("read"));
        Map<String, Object> wrong = token(Map.of("grant_type", "authorization_code", "code", code, "redirect_uri", REDIRECT,
                "client_id", clientId, "code_verifier", verifier() , "resource", RESOURCE), 400);
        assertThat(wrong).containsEntry("error", "invalid_grant");

        String second = code(clientId, verifier, List.of("read"));
        Map<String, Object> target = token(Map.of("grant_type", "authorization_code", "code", second, "redirect_uri", REDIRECT,
                "client_id", clientId, "code_verifier", verifier, "resource", "https://elsewhere.example/api/mcp"), 400);
        assertThat(target).containsEntry("error", "invalid_target");
    }

    // --- the flow's steps ---

    private String register(String redirect) {
        Page registered = browser.postJson("/oauth2/register", """
                {"client_name": "Test MCP client", "redirect_uris": ["%s"], "token_endpoint_auth_method": "none",
                 "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
                 "scope": "openid profile email"}""".formatted(redirect));
        assertThat(registered.status()).as(registered.body()).isEqualTo(201);
        Map<String, Object> client = Http.parse(registered.body());
        assertThat(client).doesNotContainKey("client_secret").containsEntry("token_endpoint_auth_method", "none");
        return (String) client.get("client_id");
    }

    private Map<String, Object> pkceQuery(String clientId, String verifier) {
        Map<String, Object> query = new LinkedHashMap<>();
        query.put("response_type", "code");
        query.put("client_id", clientId);
        query.put("redirect_uri", REDIRECT);
        query.put("scope", "openid profile email");
        query.put("state", "state-" + UUID.randomUUID());
        query.put("code_challenge", challenge(verifier));
        query.put("code_challenge_method", "S256");
        return query;
    }

    /** Authorization request, sign-in when asked, consent page. */
    private Page toConsent(String clientId, String verifier, String resource) {
        Map<String, Object> query = pkceQuery(clientId, verifier);
        query.put("resource", resource);
        Page answer = browser.get("/oauth2/authorize?" + FormClient.encode(query));
        assertThat(answer.status()).isEqualTo(302);
        if (answer.location().endsWith("/login")) {
            assertThat(answer.location()).isEqualTo(ORIGIN + "/login");
            Page form = browser.get(answer.location());
            Page signedIn = browser.post("/login", Map.of("email", email, "password", password, "_csrf", form.csrf()));
            assertThat(signedIn.location()).startsWith(ORIGIN + "/oauth2/authorize?");
            answer = browser.get(signedIn.location());
        }
        assertThat(answer.location()).as(answer.status() + " " + answer.headers().map() + " " + answer.body()).startsWith(ORIGIN + "/oauth2/consent?");
        Page consent = browser.get(answer.location());
        assertThat(consent.status()).isEqualTo(200);
        return consent;
    }

    private static String state(Page consent) {
        Matcher matcher = Pattern.compile("name=\"state\" value=\"([^\"]+)\"").matcher(consent.body());
        assertThat(matcher.find()).isTrue();
        return matcher.group(1);
    }

    private Map<String, Object> consentForm(String clientId, Page consent, List<String> capabilities) {
        Map<String, Object> form = new LinkedHashMap<>();
        form.put("client_id", clientId);
        form.put("state", state(consent));
        form.put("scope", List.of("openid", "profile", "email"));
        form.put("project_id", team.projectId().toString());
        form.put("capability", capabilities);
        form.put("_csrf", consent.csrf());
        return form;
    }

    private String code(String clientId, String verifier, List<String> capabilities) {
        Page consent = toConsent(clientId, verifier, RESOURCE);
        Page approved = browser.post("/oauth2/authorize", consentForm(clientId, consent, capabilities));
        assertThat(approved.status()).isEqualTo(302);
        assertThat(approved.location()).startsWith(REDIRECT + "?code=");
        Map<String, String> query = query(approved.location());
        return query.get("code");
    }

    private Map<String, Object> authorize(String clientId, String verifier, List<String> capabilities) {
        String code = code(clientId, verifier, capabilities);
        return token(Map.of("grant_type", "authorization_code", "code", code, "redirect_uri", REDIRECT,
                "client_id", clientId, "code_verifier", verifier, "resource", RESOURCE), 200);
    }

    private Map<String, Object> token(Map<String, Object> form, int status) {
        Page answer = client().post("/oauth2/token", form);
        assertThat(answer.status()).as(answer.body()).isEqualTo(status);
        return Http.parse(answer.body());
    }

    private JWTClaimsSet verified(String accessToken) throws Exception {
        JWKSet keys = JWKSet.parse(client().get("/oauth2/jwks").body());
        SignedJWT jwt = SignedJWT.parse(accessToken);
        RSAKey key = (RSAKey) keys.getKeyByKeyId(jwt.getHeader().getKeyID());
        assertThat(key).as("the token's key is published").isNotNull();
        assertThat(key.isPrivate()).as("the JWKS holds no private key").isFalse();
        assertThat(jwt.verify(new RSASSAVerifier(key))).isTrue();
        return jwt.getJWTClaimsSet();
    }

    private static Map<String, String> query(String url) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String pair : URI.create(url).getRawQuery().split("&")) {
            String[] parts = pair.split("=", 2);
            values.put(parts[0], URLDecoder.decode(parts.length > 1 ? parts[1] : "", StandardCharsets.UTF_8));
        }
        return values;
    }

    private static List<String> strings(Object value) {
        return ((List<?>) value).stream().map(String::valueOf).toList();
    }

    static String verifier() {
        byte[] bytes = new byte[32];
        new java.security.SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    static String challenge(String verifier) {
        try {
            return Base64.getUrlEncoder().withoutPadding().encodeToString(
                    MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
