package dev.visibility.auth.signin;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.UUID;

import dev.visibility.auth.accounts.MemberRole;
import dev.visibility.auth.accounts.Plan;
import dev.visibility.auth.support.FormClient;
import dev.visibility.auth.support.FormClient.Page;
import dev.visibility.auth.support.TestAccounts;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Issue 20, sign-in: members with passwords (delegating encoder), a form with CSRF protection, a
 * session whose id changes at sign-in, secure cookie settings, one generic message for every
 * failure, and throttling after repeated failures.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class SignInTest {

    @LocalServerPort
    int port;
    @Autowired
    TestAccounts accounts;
    @Autowired
    MemberCredentials credentials;

    private FormClient browser;
    private String email;
    private final String password = "correct horse battery staple";

    @BeforeEach
    void member() {
        browser = new FormClient("http://localhost:" + port);
        TestAccounts.Team team = accounts.team(Plan.PLUS);
        UUID member = accounts.member(team.accountId(), MemberRole.MEMBER);
        email = "Signer-" + UUID.randomUUID() + "@Example.com";
        accounts.setEmail(member, email);
        credentials.setPassword(member, password);
    }

    private Page signIn(String email, String password) {
        Page form = browser.get("/login");
        assertThat(form.status()).isEqualTo(200);
        return browser.post("/login", Map.of("email", email, "password", password, "_csrf", form.csrf()));
    }

    @Test
    void rightPasswordSignsInWithANewSessionIdAndSecureCookie() {
        Page form = browser.get("/login");
        assertThat(form.body()).contains("name=\"email\"", "name=\"password\"", "name=\"_csrf\"");
        String before = browser.cookie("AUTH_SESSION");
        assertThat(before).as("the CSRF token lives in a session").isNotNull();

        // the email is found whatever its case
        Page signedIn = browser.post("/login", Map.of("email", email.toLowerCase(), "password", password, "_csrf", form.csrf()));
        assertThat(signedIn.status()).isEqualTo(302);
        assertThat(signedIn.location()).endsWith("/dashboard");
        assertThat(browser.cookie("AUTH_SESSION")).as("session fixation protection").isNotNull().isNotEqualTo(before);
        assertThat(signedIn.setCookies()).anySatisfy(cookie -> assertThat(cookie).startsWith("AUTH_SESSION=")
                .contains("HttpOnly", "Secure", "SameSite=Lax"));

        Page dashboard = browser.get("/dashboard");
        assertThat(dashboard.status()).isEqualTo(200);
        assertThat(dashboard.body()).contains(email);
        assertThat(dashboard.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(csp ->
                assertThat(csp).contains("frame-ancestors 'none'"));
        assertThat(dashboard.headers().firstValue("X-Frame-Options")).hasValue("DENY");

        Page signedOut = browser.post("/logout", Map.of("_csrf", dashboard.csrf()));
        assertThat(signedOut.status()).isEqualTo(302);
        assertThat(browser.get("/dashboard").location()).endsWith("/login");
    }

    @Test
    void everyFailureAnswersTheSameGenericMessage() {
        Page wrongPassword = signIn(email, "not the password");
        Page unknownEmail = signIn("nobody-" + UUID.randomUUID() + "@example.com", password);
        Page emptyPassword = signIn(email, "");
        for (Page failure : new Page[] {wrongPassword, unknownEmail, emptyPassword}) {
            assertThat(failure.status()).isEqualTo(302);
            assertThat(failure.location()).endsWith("/login?error");
        }
        Page shown = browser.get("/login?error");
        assertThat(shown.body()).contains(SignInController.GENERIC_FAILURE).doesNotContain(email);
        assertThat(browser.get("/dashboard").status()).as("not signed in").isEqualTo(302);
    }

    @Test
    void formWithoutCsrfTokenIsRefused() {
        browser.get("/login");
        Page forged = browser.post("/login", Map.of("email", email, "password", password));
        assertThat(forged.status()).isEqualTo(403);
        // in the suite's error shape (spec 7), as every refusal
        assertThat(dev.visibility.platform.testing.Http.parse(forged.body())).containsEntry("error", "forbidden")
                .containsEntry("status", 403).containsKey("message");
        assertThat(browser.get("/dashboard").status()).isEqualTo(302);
    }

    @Test
    void repeatedFailuresThrottleTheEmailEvenWithTheRightPassword() {
        for (int i = 0; i < SignInThrottle.MAX_FAILURES; i++) {
            assertThat(signIn(email, "wrong " + i).location()).endsWith("/login?error");
        }
        Page throttled = signIn(email, password);
        assertThat(throttled.location()).endsWith("/login?throttled");
        assertThat(browser.get("/login?throttled").body()).contains(SignInController.THROTTLED);
        assertThat(browser.get("/dashboard").status()).isEqualTo(302);
        // another email is not affected
        FormClient other = new FormClient("http://localhost:" + port);
        Page form = other.get("/login");
        assertThat(other.post("/login", Map.of("email", "else-" + UUID.randomUUID() + "@example.com", "password", "x",
                "_csrf", form.csrf())).location()).endsWith("/login?error");
    }

    @Test
    void signInPageNeedsNoSessionAndAssetsAreServed() {
        assertThat(browser.get("/dashboard/assets/site.css").status()).isEqualTo(200);
        assertThat(browser.get("/dashboard").location()).endsWith("/login");
    }
}
