package dev.visibility.auth.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Base64;
import java.util.UUID;

import dev.visibility.auth.accounts.Plan;
import dev.visibility.auth.secrets.Secrets;
import dev.visibility.auth.signin.MemberCredentials;
import dev.visibility.auth.support.FormClient;
import dev.visibility.auth.support.TestAccounts;
import dev.visibility.platform.testing.HeadlessChromium;
import dev.visibility.platform.testing.Http;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Issue 20, the dashboard in a real headless Chromium (Debian's {@code chromium} and
 * {@code chromium-driver}, driven by Selenium pointed at the system driver): sign in, create a key,
 * see it once and use it (the gateway's lookup), revoke it after the confirmation page; connect an
 * MCP client on the consent page and revoke the connection. A screenshot of each page goes to
 * {@code target/screenshots/}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class DashboardBrowserTest {

    @LocalServerPort
    int port;
    @Autowired
    TestAccounts accounts;
    @Autowired
    MemberCredentials credentials;

    private WebDriver browser;
    private WebDriverWait wait;
    private String base;

    @BeforeEach
    void startChromium() {
        browser = HeadlessChromium.start();
        wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        base = "http://localhost:" + port;
    }

    @AfterEach
    void stopChromium() {
        if (browser != null) {
            browser.quit();
        }
    }

    private void screenshot(String name) {
        HeadlessChromium.screenshot(browser, name);
    }

    private void open(String path) {
        browser.get(base + path);
    }

    private void submit(String formSelector) {
        browser.findElement(By.cssSelector(formSelector + " button[type=submit]")).click();
    }

    @Test
    void signInCreateUseAndRevokeAKeyThenConnectAndRevokeAnMcpClient() throws Exception {
        TestAccounts.Team team = accounts.team(Plan.PLUS);
        String email = "browser-" + UUID.randomUUID() + "@example.com";
        accounts.setEmail(team.ownerId(), email);
        credentials.setPassword(team.ownerId(), "browser password");

        // sign-in: a wrong password first shows the one generic message
        open("/dashboard");
        wait.until(ExpectedConditions.urlMatches("^" + java.util.regex.Pattern.quote(base + "/login") + "$"));
        browser.findElement(By.id("email")).sendKeys(email);
        browser.findElement(By.id("password")).sendKeys("not it");
        submit("#sign-in");
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("failure")));
        assertThat(browser.findElement(By.id("failure")).getText()).isEqualTo("The email or password is not right.");
        screenshot("01-sign-in-failed");
        browser.findElement(By.id("email")).sendKeys(email);
        browser.findElement(By.id("password")).sendKeys("browser password");
        submit("#sign-in");
        // back to the page that asked for the sign-in (Spring's saved request adds "?continue")
        wait.until(ExpectedConditions.urlMatches("^" + java.util.regex.Pattern.quote(base + "/dashboard") + "(\\?continue)?$"));
        assertThat(browser.findElement(By.id("signed-in-as")).getText()).contains(email);
        assertThat(browser.manage().getCookieNamed("AUTH_SESSION").isHttpOnly()).isTrue();
        screenshot("02-dashboard");

        // API keys: create with narrowed scopes, the key shown once
        browser.findElement(By.cssSelector("tr[data-project-id='" + team.projectId() + "'] a.api-keys-link")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("create-key")));
        screenshot("03-api-keys-empty");
        browser.findElement(By.id("name")).sendKeys("Browser key");
        browser.findElement(By.id("narrowed")).click();
        browser.findElement(By.cssSelector("input[name=scope][value='visibility.read']")).click();
        browser.findElement(By.cssSelector("input[name=scope][value='webhooks.read']")).click();
        submit("#create-key");
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("new-key")));
        String key = browser.findElement(By.id("new-key")).getText();
        assertThat(key).matches("^svc_live_[0-9a-f]{64}$");
        assertThat(browser.findElement(By.id("new-key-scopes")).getText()).isEqualTo("visibility.read, webhooks.read");
        assertThat(browser.findElement(By.id("copy-key")).isDisplayed()).isTrue();
        screenshot("04-api-key-created");

        // the key works at once: what the gateway asks auth-service for it
        WebTestClient api = Http.client(port);
        assertThat(Http.json(api.get().uri("/internal/v1/api-keys/" + Secrets.sha256Hex(key))
                .header(HttpHeaders.AUTHORIZATION, TestAccounts.internalBearer()), 200))
                .containsEntry("projectId", team.projectId().toString()).containsEntry("name", "Browser key");

        browser.findElement(By.id("back-to-keys")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("api-keys")));
        String page = browser.findElement(By.id("api-keys")).getText();
        assertThat(page).contains("Browser key", key.substring(0, 12) + "…", "visibility.read, webhooks.read").doesNotContain(key);
        screenshot("05-api-keys-listed");

        browser.findElement(By.cssSelector("a.revoke-link")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm-revoke")));
        screenshot("06-api-key-revoke-confirm");
        submit("#confirm-revoke");
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("notice")));
        assertThat(browser.findElement(By.id("api-keys")).getText()).contains("revoked");
        screenshot("07-api-key-revoked");
        Http.error(api.get().uri("/internal/v1/api-keys/" + Secrets.sha256Hex(key))
                .header(HttpHeaders.AUTHORIZATION, TestAccounts.internalBearer()), 404);

        // an MCP client: registered over HTTP, authorized in the browser on the consent page
        String redirect = "http://127.0.0.1:" + freePort() + "/callback";
        FormClient http = new FormClient(base);
        FormClient.Page registered = http.postJson("/oauth2/register", """
                {"client_name": "Browser MCP client", "redirect_uris": ["%s"], "token_endpoint_auth_method": "none",
                 "scope": "openid profile email"}""".formatted(redirect));
        assertThat(registered.status()).isEqualTo(201);
        String clientId = (String) Http.parse(registered.body()).get("client_id");
        String verifier = Secrets.randomHex();
        String challenge = Base64.getUrlEncoder().withoutPadding().encodeToString(
                MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII)));
        open("/oauth2/authorize?response_type=code&client_id=" + clientId + "&redirect_uri=" + enc(redirect)
                + "&scope=" + enc("openid profile email") + "&state=s1&code_challenge=" + challenge
                + "&code_challenge_method=S256&resource=" + enc(base + "/api/mcp"));
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("form.project-choice")));
        assertThat(browser.findElement(By.id("client-name")).getText()).isEqualTo("Browser MCP client");
        screenshot("08-consent-project-selector");
        String projectForm = "form.project-choice[data-project-id='" + team.projectId() + "']";
        browser.findElement(By.cssSelector(projectForm + " input[value='write']")).click();
        submit(projectForm);
        wait.until(ExpectedConditions.urlContains("code="));
        assertThat(browser.getCurrentUrl()).startsWith(redirect + "?code=").contains("state=s1");

        open("/dashboard/connections");
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("connections")));
        assertThat(browser.findElement(By.id("connections")).getText())
                .contains("Browser MCP client", "read, write", "active");
        screenshot("09-connections");
        browser.findElement(By.cssSelector("form.revoke-connection button")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("notice")));
        assertThat(browser.findElement(By.id("connections")).getText()).contains("revoked");
        screenshot("10-connection-revoked");

        browser.findElement(By.cssSelector("#sign-out button")).click();
        wait.until(ExpectedConditions.urlContains("/login"));
        open("/dashboard");
        wait.until(ExpectedConditions.urlMatches("^" + java.util.regex.Pattern.quote(base + "/login") + "$"));
        screenshot("11-signed-out");
    }

    private static String enc(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static int freePort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

}
