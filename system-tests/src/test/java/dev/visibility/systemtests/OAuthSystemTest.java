package dev.visibility.systemtests;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 20, "The OAuth flow end to end", through the public origin (a real gateway in front of a
 * real auth-service, no browser): what an MCP client does (discovery, registration, authorization
 * with PKCE and resource, token exchange, refresh) and what the person does (sign-in and project
 * selection by form posts), then the bad inputs. DESIGN.md "MCP and OAuth".
 */
class OAuthSystemTest {

    private static SignInEdge edge;
    private static String origin;
    private static final String REDIRECT = "http://127.0.0.1:45231/callback";

    @BeforeAll
    static void start() {
        edge = SignInEdge.get();
        origin = edge.gateway.baseUrl();
    }

    @Test
    void anMcpClientConnectsWithTheMembersChoiceAndItsTokenCarriesIt() throws Exception {
        Browser client = new Browser(origin);
        // discovery: the MCP resource metadata names the authorization server once mcp-service serves it
        // (RFC 9728); until then its route answers 503 and the client starts from the origin
        Browser.Page resource = client.get("/.well-known/oauth-protected-resource/api/mcp");
        String issuer = origin;
        if (resource.status() == 200) {
            assertThat(resource.json()).containsEntry("resource", origin + "/api/mcp");
            issuer = (String) ((List<?>) resource.json().get("authorization_servers")).get(0);
        } else {
            assertThat(resource.status()).isEqualTo(503);
        }
        assertThat(issuer).isEqualTo(origin);
        Map<String, Object> metadata = client.get(issuer + "/.well-known/oauth-authorization-server").json();
        assertThat(metadata).containsEntry("issuer", origin)
                .containsEntry("authorization_endpoint", origin + "/oauth2/authorize")
                .containsEntry("token_endpoint", origin + "/oauth2/token")
                .containsEntry("registration_endpoint", origin + "/oauth2/register")
                .containsEntry("jwks_uri", origin + "/oauth2/jwks")
                .containsEntry("code_challenge_methods_supported", List.of("S256"));

        String clientId = register(client, (String) metadata.get("registration_endpoint"));
        String verifier = verifier();
        Browser person = new Browser(origin);
        String code = approve(person, clientId, verifier, List.of("read", "write"));

        Browser.Page token = client.post((String) metadata.get("token_endpoint"), Map.of("grant_type", "authorization_code",
                "code", code, "redirect_uri", REDIRECT, "client_id", clientId, "code_verifier", verifier,
                "resource", origin + "/api/mcp"));
        assertThat(token.status()).as(token.body()).isEqualTo(200);
        Map<String, Object> tokens = token.json();
        assertThat(tokens).containsEntry("token_type", "Bearer").containsKeys("access_token", "refresh_token");

        JWTClaimsSet claims = verified(client, (String) metadata.get("jwks_uri"), (String) tokens.get("access_token"));
        assertThat(claims.getIssuer()).isEqualTo(origin);
        assertThat(claims.getAudience()).containsExactly(origin + "/api/mcp");
        assertThat(claims.getStringClaim("client_id")).isEqualTo(clientId);
        assertThat(claims.getStringClaim("project_id")).isEqualTo(edge.seed.projectId());
        assertThat(claims.getStringListClaim("capabilities")).containsExactly("read", "write");
        assertThat(claims.getSubject()).isNotBlank();
        assertThat(claims.getExpirationTime()).isAfter(new Date());

        // refresh: the connection keeps its project and never gains a capability
        Browser.Page refreshed = client.post((String) metadata.get("token_endpoint"), Map.of("grant_type", "refresh_token",
                "refresh_token", tokens.get("refresh_token"), "client_id", clientId));
        assertThat(refreshed.status()).as(refreshed.body()).isEqualTo(200);
        JWTClaimsSet again = verified(client, (String) metadata.get("jwks_uri"), (String) refreshed.json().get("access_token"));
        assertThat(again.getStringListClaim("capabilities")).containsExactly("read", "write");
        assertThat(again.getStringClaim("project_id")).isEqualTo(edge.seed.projectId());
    }

    @Test
    void registrationRefusesJavascriptAndNonHttpRedirects() {
        Browser client = new Browser(origin);
        for (String redirect : List.of("javascript:alert(document.cookie)", "myapp://oauth/callback", "file:///etc/passwd")) {
            Browser.Page refused = client.postJson("/oauth2/register", """
                    {"client_name": "bad", "redirect_uris": ["%s"], "token_endpoint_auth_method": "none"}""".formatted(redirect));
            assertThat(refused.status()).as(redirect).isEqualTo(400);
            assertThat(refused.json()).as(redirect).containsEntry("error", "invalid_redirect_uri");
        }
    }

    @Test
    void authorizationWithoutPkceNeverGivesACode() {
        Browser person = new Browser(origin);
        signIn(person);
        String clientId = register(new Browser(origin), origin + "/oauth2/register");
        Map<String, Object> query = authorizationQuery(clientId, null);
        Browser.Page answer = person.get("/oauth2/authorize?" + Browser.encode(query));
        assertThat(answer.status()).isEqualTo(302);
        assertThat(answer.location()).startsWith(REDIRECT).contains("error=invalid_request");
        assertThat(Browser.query(answer.location())).doesNotContainKey("code");
    }

    @Test
    void anotherResourceIsInvalidTargetAtBothEndpoints() {
        Browser person = new Browser(origin);
        signIn(person);
        String clientId = register(new Browser(origin), origin + "/oauth2/register");
        Map<String, Object> query = authorizationQuery(clientId, verifier());
        query.put("resource", "https://other.example/api/mcp");
        Browser.Page answer = person.get("/oauth2/authorize?" + Browser.encode(query));
        assertThat(answer.location()).startsWith(REDIRECT).contains("error=invalid_target");
        assertThat(Browser.query(answer.location())).doesNotContainKey("code");

        String verifier = verifier();
        String code = approve(person, clientId, verifier, List.of("read"));
        Browser.Page token = new Browser(origin).post("/oauth2/token", Map.of("grant_type", "authorization_code", "code", code,
                "redirect_uri", REDIRECT, "client_id", clientId, "code_verifier", verifier,
                "resource", origin + "/api/v2"));
        assertThat(token.status()).isEqualTo(400);
        assertThat(token.json()).containsEntry("error", "invalid_target");
    }

    @Test
    void aWrongCodeVerifierIsInvalidGrant() {
        Browser person = new Browser(origin);
        String clientId = register(new Browser(origin), origin + "/oauth2/register");
        String code = approve(person, clientId, verifier(), List.of("read"));
        Browser.Page token = new Browser(origin).post("/oauth2/token", Map.of("grant_type", "authorization_code", "code", code,
                "redirect_uri", REDIRECT, "client_id", clientId, "code_verifier", verifier(),
                "resource", origin + "/api/mcp"));
        assertThat(token.status()).isEqualTo(400);
        assertThat(token.json()).containsEntry("error", "invalid_grant");
    }

    /** DESIGN.md request path 1: at /api/mcp a token without client_id, oauth_client_id or azp is 401. */
    @Test
    void aTokenWithoutClientIdIs401AtTheMcpRoute() throws Exception {
        RSAKey key = new RSAKeyGenerator(2048).keyID("test").generate();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("test").build(), new JWTClaimsSet.Builder()
                .issuer(origin).audience(origin + "/api/mcp").subject(UUID.randomUUID().toString())
                .claim("project_id", edge.seed.projectId()).claim("capabilities", List.of("read"))
                .expirationTime(new Date(System.currentTimeMillis() + 600_000)).build());
        jwt.sign(new RSASSASigner(key));
        Browser.Page answer = new Browser(origin).get("/api/mcp", jwt.serialize());
        assertThat(answer.status()).isEqualTo(401);
        assertThat(answer.json()).containsEntry("error", "unauthorized");
    }

    // --- the steps ---

    private static String register(Browser client, String endpoint) {
        Browser.Page registered = client.postJson(endpoint, """
                {"client_name": "System test MCP client", "redirect_uris": ["%s"], "token_endpoint_auth_method": "none",
                 "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
                 "scope": "openid profile email"}""".formatted(REDIRECT));
        assertThat(registered.status()).as(registered.body()).isEqualTo(201);
        assertThat(registered.json()).doesNotContainKey("client_secret");
        return (String) registered.json().get("client_id");
    }

    private static Map<String, Object> authorizationQuery(String clientId, String verifier) {
        Map<String, Object> query = new LinkedHashMap<>();
        query.put("response_type", "code");
        query.put("client_id", clientId);
        query.put("redirect_uri", REDIRECT);
        query.put("scope", "openid profile email");
        query.put("state", UUID.randomUUID().toString());
        if (verifier != null) {
            query.put("code_challenge", challenge(verifier));
            query.put("code_challenge_method", "S256");
        }
        query.put("resource", origin + "/api/mcp");
        return query;
    }

    private static void signIn(Browser person) {
        Browser.Page form = person.get("/login");
        assertThat(form.status()).isEqualTo(200);
        Browser.Page signedIn = person.post("/login", Map.of("email", edge.seed.memberEmail(),
                "password", edge.seed.memberPassword(), "_csrf", form.csrf()));
        assertThat(signedIn.status()).isEqualTo(302);
    }

    /** The person's side: authorization request, sign-in, the project selector; answers the code. */
    private static String approve(Browser person, String clientId, String verifier, List<String> capabilities) {
        Map<String, Object> query = authorizationQuery(clientId, verifier);
        Browser.Page answer = person.get("/oauth2/authorize?" + Browser.encode(query));
        assertThat(answer.status()).isEqualTo(302);
        if (answer.location().equals(origin + "/login")) {
            Browser.Page form = person.get(answer.location());
            Browser.Page signedIn = person.post("/login", Map.of("email", edge.seed.memberEmail(),
                    "password", edge.seed.memberPassword(), "_csrf", form.csrf()));
            assertThat(signedIn.location()).startsWith(origin + "/oauth2/authorize?");
            answer = person.get(signedIn.location());
        }
        assertThat(answer.location()).startsWith(origin + "/oauth2/consent?");
        Browser.Page consent = person.get(answer.location());
        assertThat(consent.status()).isEqualTo(200);
        assertThat(consent.body()).contains(edge.seed.projectId(), edge.seed.otherProjectId(), "value=\"write\"");
        Matcher state = Pattern.compile("name=\"state\" value=\"([^\"]+)\"").matcher(consent.body());
        assertThat(state.find()).isTrue();
        Map<String, Object> form = new LinkedHashMap<>();
        form.put("client_id", clientId);
        form.put("state", state.group(1));
        form.put("scope", List.of("openid", "profile", "email"));
        form.put("project_id", edge.seed.projectId());
        form.put("capability", capabilities);
        form.put("_csrf", consent.csrf());
        Browser.Page approved = person.post("/oauth2/authorize", form);
        assertThat(approved.status()).isEqualTo(302);
        assertThat(approved.location()).startsWith(REDIRECT);
        Map<String, String> redirect = Browser.query(approved.location());
        assertThat(redirect).containsEntry("state", (String) query.get("state")).containsKey("code");
        return redirect.get("code");
    }

    private static JWTClaimsSet verified(Browser client, String jwksUri, String accessToken) throws Exception {
        JWKSet keys = JWKSet.parse(client.get(jwksUri).body());
        SignedJWT jwt = SignedJWT.parse(accessToken);
        RSAKey key = (RSAKey) keys.getKeyByKeyId(jwt.getHeader().getKeyID());
        assertThat(key).isNotNull();
        assertThat(key.isPrivate()).isFalse();
        assertThat(jwt.verify(new RSASSAVerifier(key))).isTrue();
        return jwt.getJWTClaimsSet();
    }

    private static String verifier() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String challenge(String verifier) {
        try {
            return Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
