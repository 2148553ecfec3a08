package dev.visibility.systemtests;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

import dev.visibility.platform.testing.HeadlessChromium;
import dev.visibility.platform.testing.SharedInfrastructure;
import dev.visibility.systemtests.Receiver.Received;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Issue 20, the dashboard's webhooks page end to end in a real headless Chromium, through the
 * public origin (a gateway) to the real webhook-service (spec 5.11, 6.4, E13–E16): a member signs
 * in, creates a webhook (the secret shown once), an action created through the API is delivered
 * signed with that secret and appears in the delivery log with its attempt, redeliver sends it
 * again as a new delivery, rotate shows a new secret that signs the next delivery, delete stops
 * the deliveries; at sign-out the session's API key is revoked. Screenshots in
 * {@code target/screenshots/}.
 */
class DashboardWebhooksSystemTest extends SystemTest {

    private static final Duration PAGE = Duration.ofSeconds(30);
    private static final Pattern SECRET = Pattern.compile("^[A-Za-z0-9_\\-+/=]{20,}$");

    private WebDriver browser;
    private WebDriverWait wait;
    private String origin;

    @BeforeEach
    void startChromium() {
        browser = HeadlessChromium.start();
        wait = new WebDriverWait(browser, PAGE);
        // localhost: a secure context for Chromium, so it keeps the Secure session cookie over plain HTTP
        origin = edge.domain.baseUrl().replace("127.0.0.1", "localhost");
    }

    @AfterEach
    void stopChromium() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void signInCreateAWebhookSeeItsDeliveriesRedeliverRotateAndDeleteIt() throws Exception {
        try (Receiver receiver = Receiver.answering(204)) {
            signIn();
            browser.findElement(By.cssSelector("tr[data-project-id='" + project() + "'] a.webhooks-link")).click();
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("create-webhook")));
            shot("11-webhooks");

            // create: URL and one event; the secret is shown once
            String url = receiver.url("/dashboard-" + UUID.randomUUID());
            browser.findElement(By.id("url")).sendKeys(url);
            browser.findElement(By.cssSelector("input[name=event][value='action.created']")).click();
            submit("#create-webhook");
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("webhook-secret")));
            String secret = browser.findElement(By.id("webhook-secret")).getText();
            assertThat(secret).matches(SECRET);
            assertThat(browser.findElement(By.id("webhook-events")).getText()).isEqualTo("action.created");
            shot("12-webhook-created");

            // the page acted on the public API: E14 with the project's own key lists it
            Map<String, Object> listed = list(envelope(get("/webhooks", 200), project()).get("webhooks")).stream()
                    .filter(w -> url.equals(w.get("url"))).findFirst().orElseThrow();
            String webhookId = (String) listed.get("id");
            assertThat(listed.get("events")).isEqualTo(List.of("action.created"));
            assertThat(listed).doesNotContainKey("secret");

            // an event: delivered, signed with the secret the page showed
            String first = createAction();
            Received delivered = receiver.await(r -> about(r, first), 1, WITHIN).get(0);
            assertThat(delivered.event()).isEqualTo("action.created");
            assertThat(delivered.verifies(secret)).isTrue();
            String deliveryId = delivered.header("X-Service-Delivery");

            // the delivery log: that delivery, succeeded, with its attempt (time, status 204, duration)
            browser.findElement(By.id("back-to-webhooks")).click();
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("webhooks")));
            browser.findElement(By.cssSelector("tr[data-webhook-id='" + webhookId + "'] a.deliveries-link")).click();
            WebElement row = awaitDelivery(deliveryId, "succeeded");
            assertThat(row.findElement(By.cssSelector("td.state")).getText()).isEqualTo("succeeded");
            List<WebElement> attempts = row.findElements(By.cssSelector("li.attempt"));
            assertThat(attempts).hasSize(1);
            assertThat(attempts.get(0).findElement(By.cssSelector(".http-status")).getText()).isEqualTo("204");
            assertThat(attempts.get(0).getText()).contains(" ms");
            shot("13-delivery-log");

            // redeliver: a new delivery of the same event, with an id of its own
            row.findElement(By.cssSelector("form.redeliver-form button")).click();
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("notice")));
            assertThat(browser.findElement(By.id("notice")).getText()).startsWith("Redelivery queued as delivery");
            List<Received> both = receiver.await(r -> about(r, first), 2, WITHIN);
            assertThat(both.get(1).header("X-Service-Delivery")).isNotEqualTo(deliveryId);
            assertThat(both.get(1).body()).isEqualTo(delivered.body());
            assertThat(both.get(1).verifies(secret)).isTrue();
            awaitDelivery(both.get(1).header("X-Service-Delivery"), "succeeded");
            shot("14-redelivered");

            // rotate: a new secret, shown once; the next delivery is signed with it and not with the old one
            browser.findElement(By.id("back-to-webhooks")).click();
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("webhooks")));
            browser.findElement(By.cssSelector("tr[data-webhook-id='" + webhookId + "'] form.rotate-form button")).click();
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("webhook-secret")));
            String rotated = browser.findElement(By.id("webhook-secret")).getText();
            assertThat(rotated).matches(SECRET).isNotEqualTo(secret);
            shot("15-secret-rotated");
            String second = createAction();
            Received afterRotation = receiver.await(r -> about(r, second), 1, WITHIN).get(0);
            assertThat(afterRotation.verifies(rotated)).isTrue();
            assertThat(afterRotation.verifies(secret)).isFalse();

            // delete after the confirmation page: gone from the list and from E14, no further deliveries
            browser.findElement(By.id("back-to-webhooks")).click();
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("webhooks")));
            browser.findElement(By.cssSelector("tr[data-webhook-id='" + webhookId + "'] a.delete-link")).click();
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm-delete")));
            shot("16-delete-confirm");
            submit("#confirm-delete");
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("notice")));
            assertThat(browser.findElements(By.cssSelector("tr[data-webhook-id='" + webhookId + "']"))).isEmpty();
            assertThat(ids(list(envelope(get("/webhooks", 200), project()).get("webhooks")))).doesNotContain(webhookId);
            shot("17-webhook-deleted");

            // sign-out revokes the session's key: nothing the page held works afterwards
            assertThat(activeSessionKeys()).isPositive();
            browser.findElement(By.cssSelector("#sign-out button")).click();
            wait.until(ExpectedConditions.urlContains("/login"));
            Waits.until("the session key revoked", WITHIN, DashboardWebhooksSystemTest::activeSessionKeys, n -> n == 0);
        }
    }

    @Test
    void aBadUrlIsShownWithTheApisMessageAndNothingIsCreated() throws Exception {
        signIn();
        browser.get(origin + "/dashboard/projects/" + project() + "/webhooks");
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("create-webhook")));
        int before = list(envelope(get("/webhooks", 200), project()).get("webhooks")).size();
        // type="url" lets ftp: through the browser; the API refuses it (400, spec 7) and the page says why
        browser.findElement(By.id("url")).sendKeys("ftp://example.com/hook");
        browser.findElement(By.cssSelector("input[name=event][value='action.created']")).click();
        submit("#create-webhook");
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("problem")));
        assertThat(browser.findElement(By.id("problem")).getText()).contains("(400)").containsIgnoringCase("url");
        shot("18-bad-url");
        assertThat(list(envelope(get("/webhooks", 200), project()).get("webhooks"))).hasSize(before);
    }

    private void signIn() {
        browser.get(origin + "/dashboard");
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("sign-in")));
        browser.findElement(By.id("email")).sendKeys(edge.seed.memberEmail());
        browser.findElement(By.id("password")).sendKeys(edge.seed.memberPassword());
        submit("#sign-in");
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("projects")));
    }

    private WebElement awaitDelivery(String deliveryId, String state) {
        By row = By.cssSelector("tr[data-delivery-id='" + deliveryId + "'][data-state='" + state + "']");
        return new WebDriverWait(browser, WITHIN).until(driver -> {
            List<WebElement> found = driver.findElements(row);
            if (found.isEmpty()) {
                driver.navigate().refresh();
                return null;
            }
            return found.get(0);
        });
    }

    private void submit(String form) {
        browser.findElement(By.cssSelector(form + " button[type=submit]")).click();
    }

    private void shot(String name) {
        HeadlessChromium.screenshot(browser, name);
    }

    private static String createAction() {
        String title = "dashboard-webhook-" + UUID.randomUUID();
        Map<String, Object> created = post("/actions", Map.of("title", title, "description", "from the webhooks page test",
                "channels", List.of("content"), "priority", "medium"), 201).data();
        return (String) created.get("id");
    }

    private static boolean about(Received received, String actionId) {
        Map<String, Object> data = received.data();
        return data != null && actionId.equals(data.get("actionId"));
    }

    /** Active dashboard session keys of the seeded project (auth-service's table). */
    private static int activeSessionKeys() {
        try (Connection db = DriverManager.getConnection(SharedInfrastructure.jdbcUrl(), SharedInfrastructure.USER,
                SharedInfrastructure.PASSWORD);
                PreparedStatement query = db.prepareStatement("SELECT count(*) FROM auth.api_keys WHERE project_id = ?::uuid"
                        + " AND session_expires_at IS NOT NULL AND revoked_at IS NULL")) {
            query.setString(1, project());
            try (ResultSet rows = query.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
