package dev.visibility.webhook.subscriptions;

import static dev.visibility.platform.testing.Http.data;
import static dev.visibility.platform.testing.Http.error;
import static dev.visibility.platform.testing.Http.json;
import static dev.visibility.platform.testing.Http.meta;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import dev.visibility.webhook.secrets.SecretCipher;
import dev.visibility.webhook.support.WebhookApiTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;

/** E13-E16 (spec 4, 2.13, state table of section 3) through the service's HTTP API. */
class WebhookSubscriptionsApiTest extends WebhookApiTest {

    private static final String SECRET_PATTERN = "^whsec_[0-9a-f]{64}$";

    @Autowired
    DatabaseClient db;

    @Autowired
    SecretCipher cipher;

    private String url() {
        // a loopback receiver address: the tests' context allows loopback (SsrfGuardTest proves the refusal)
        return "https://localhost:9/hooks/" + UUID.randomUUID();
    }

    @Test
    void createAnswers201WithTheSubscriptionAndItsSecret() {
        String project = newProject();
        String url = url();
        Map<String, Object> envelope = json(post(project, "/webhooks",
                Map.of("url", url, "events", List.of("action.created", "search-tracking.completed"))), 201);
        Map<String, Object> data = data(envelope);
        // E13: {data: {id, url, events, isActive, secret, createdAt}, meta}
        assertThat(data.keySet()).containsExactlyInAnyOrder("id", "url", "events", "isActive", "secret", "createdAt");
        assertThat(UUID.fromString((String) data.get("id"))).isNotNull();
        assertThat(data.get("url")).isEqualTo(url);
        assertThat(data.get("events")).isEqualTo(List.of("action.created", "search-tracking.completed"));
        assertThat(data.get("isActive")).isEqualTo(true);
        assertThat((String) data.get("secret")).matches(SECRET_PATTERN);
        assertThat(Instant.parse((String) data.get("createdAt"))).isBefore(Instant.now().plusSeconds(1));
        assertThat(meta(envelope)).containsEntry("projectId", project).containsKey("timestamp");
    }

    @Test
    void listShowsOnlyActiveSubscriptionsAndNeverASecret() {
        String project = newProject();
        Map<String, Object> kept = createWebhook(project, url(), "visibility.changed");
        Map<String, Object> deleted = createWebhook(project, url(), "action.updated");
        json(delete(project, "/webhooks/" + deleted.get("id")), 200);

        Map<String, Object> envelope = json(get(project, "/webhooks"), 200);
        assertThat(meta(envelope)).containsEntry("projectId", project);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> webhooks = (List<Map<String, Object>>) data(envelope).get("webhooks");
        // E14: only active subscriptions of the project, {id, url, events, isActive, createdAt}
        assertThat(webhooks).hasSize(1);
        assertThat(webhooks.get(0).keySet()).containsExactlyInAnyOrder("id", "url", "events", "isActive", "createdAt");
        assertThat(webhooks.get(0)).containsEntry("id", kept.get("id")).containsEntry("url", kept.get("url"))
                .containsEntry("events", List.of("visibility.changed")).containsEntry("isActive", true)
                .containsEntry("createdAt", kept.get("createdAt"));
    }

    @Test
    void listOfAProjectWithoutWebhooksIsEmpty() {
        assertThat(data(json(get(newProject(), "/webhooks"), 200))).isEqualTo(Map.of("webhooks", List.of()));
    }

    @Test
    void deleteAnswersDeletedTrueWithoutEnvelope() {
        String project = newProject();
        Object id = createWebhook(project, url(), "action.created").get("id");
        // E15: 200 {deleted: true}, no envelope
        assertThat(json(delete(project, "/webhooks/" + id), 200)).isEqualTo(Map.of("deleted", true));
        // deleting it again changes nothing (our decision: still 200)
        assertThat(json(delete(project, "/webhooks/" + id), 200)).isEqualTo(Map.of("deleted", true));
    }

    @Test
    void deleteOfAnUnknownOrAnotherProjectsWebhookIs404() {
        String project = newProject();
        String other = newProject();
        Object othersWebhook = createWebhook(other, url(), "action.created").get("id");
        // E15, spec 7: 404 when the id does not exist or belongs to another project
        assertThat(error(delete(project, "/webhooks/" + UUID.randomUUID()), 404)).containsEntry("error", "not_found");
        assertThat(error(delete(project, "/webhooks/" + othersWebhook), 404)).containsEntry("error", "not_found");
        // and the other project's webhook is still active
        assertThat(data(json(get(other, "/webhooks"), 200)).get("webhooks").toString()).contains(othersWebhook.toString());
    }

    @Test
    void rotateIssuesANewSecret() {
        String project = newProject();
        Map<String, Object> created = createWebhook(project, url(), "action.created");
        Map<String, Object> envelope = json(post(project, "/webhooks/" + created.get("id") + "/rotate-secret", (String) null), 200);
        // E16: 200 {data: {secret}, meta}
        assertThat(data(envelope).keySet()).containsExactly("secret");
        String secret = (String) data(envelope).get("secret");
        assertThat(secret).matches(SECRET_PATTERN).isNotEqualTo(created.get("secret"));
        assertThat(meta(envelope)).containsEntry("projectId", project);
        assertThat(storedSecret(created.get("id"))).isEqualTo(secret);
    }

    @Test
    void rotateOfAnUnknownAnotherProjectsOrAnInactiveWebhookIs404() {
        String project = newProject();
        Object inactive = createWebhook(project, url(), "action.created").get("id");
        json(delete(project, "/webhooks/" + inactive), 200);
        Object othersWebhook = createWebhook(newProject(), url(), "action.created").get("id");
        // E16, spec 3 and 7: unknown, another project's, or inactive: 404
        for (Object id : List.of(UUID.randomUUID(), othersWebhook, inactive)) {
            assertThat(error(post(project, "/webhooks/" + id + "/rotate-secret", (String) null), 404))
                    .containsEntry("error", "not_found");
        }
    }

    @Test
    void secretsAreStoredEncrypted() {
        String project = newProject();
        Map<String, Object> created = createWebhook(project, url(), "action.created");
        String secret = (String) created.get("secret");
        byte[] stored = db.sql("SELECT secret_ciphertext FROM subscriptions WHERE id = :id")
                .bind("id", UUID.fromString((String) created.get("id")))
                .map((row, meta) -> row.get(0, byte[].class)).one().block();
        // DESIGN.md: stored encrypted (AES-GCM); the clear secret's bytes appear nowhere in the column
        assertThat(new String(stored, StandardCharsets.ISO_8859_1)).doesNotContain(secret).doesNotContain(secret.substring(6));
        assertThat(storedSecret(created.get("id"))).isEqualTo(secret);
    }

    private String storedSecret(Object webhookId) {
        UUID id = UUID.fromString((String) webhookId);
        byte[] stored = db.sql("SELECT secret_ciphertext FROM subscriptions WHERE id = :id").bind("id", id)
                .map((row, meta) -> row.get(0, byte[].class)).one().block();
        return cipher.decrypt(stored, id);
    }

    static Stream<Arguments> invalidBodies() {
        String valid = "[\"action.created\"]";
        String url = "\"https://localhost:9/hook\"";
        return Stream.of(
                Arguments.of("{\"events\":" + valid + "}", "url"),
                Arguments.of("{\"url\":null,\"events\":" + valid + "}", "url"),
                Arguments.of("{\"url\":\"\",\"events\":" + valid + "}", "url"),
                Arguments.of("{\"url\":\"http://localhost:9/hook\",\"events\":" + valid + "}", "url"),
                Arguments.of("{\"url\":\"http://example.com/hook\",\"events\":" + valid + "}", "url"),
                Arguments.of("{\"url\":\"ftp://localhost/hook\",\"events\":" + valid + "}", "url"),
                Arguments.of("{\"url\":\"not a url\",\"events\":" + valid + "}", "url"),
                Arguments.of("{\"url\":\"/relative/hook\",\"events\":" + valid + "}", "url"),
                Arguments.of("{\"url\":\"https:///no-host\",\"events\":" + valid + "}", "url"),
                Arguments.of("{\"url\":\"https://user:pw@localhost:9/hook\",\"events\":" + valid + "}", "url"),
                Arguments.of("{\"url\":\"https://localhost:9/hook#part\",\"events\":" + valid + "}", "url"),
                Arguments.of("{\"url\":\"https://localhost:9/" + "a".repeat(2048) + "\",\"events\":" + valid + "}", "url"),
                Arguments.of("{\"url\":" + url + "}", "events"),
                Arguments.of("{\"url\":" + url + ",\"events\":null}", "events"),
                Arguments.of("{\"url\":" + url + ",\"events\":[]}", "events"),
                Arguments.of("{\"url\":" + url + ",\"events\":[\"action.deleted\"]}", "events"),
                Arguments.of("{\"url\":" + url + ",\"events\":[\"action.created\",null]}", "events"),
                Arguments.of("{\"url\":" + url + ",\"events\":[\"action.created\",\"action.created\"]}", "events"),
                Arguments.of("{\"url\":" + url + ",\"events\":\"action.created\"}", "events"),
                Arguments.of("{\"url\":" + url + ",\"events\":{\"a\":1}}", "events"));
    }

    @ParameterizedTest
    @MethodSource("invalidBodies")
    void invalidBodiesAre400NamingTheField(String body, String field) {
        String project = newProject();
        Map<String, Object> error = error(post(project, "/webhooks", body), 400);
        assertThat(error).containsEntry("error", "invalid_request");
        assertThat((String) error.get("message")).contains("'" + field + "'");
        // nothing was created
        assertThat(data(json(get(project, "/webhooks"), 200))).isEqualTo(Map.of("webhooks", List.of()));
    }

    @Test
    void aBodyThatIsNotJsonOrMissingIs400() {
        String project = newProject();
        assertThat(error(post(project, "/webhooks", "{\"url\": "), 400)).containsEntry("error", "invalid_request");
        assertThat(error(client.post().uri("/api/v2/projects/" + project + "/webhooks")
                .header(HttpHeaders.AUTHORIZATION, bearer(project, "webhooks.write"))
                .contentType(MediaType.APPLICATION_JSON), 400)).containsEntry("error", "invalid_request");
        assertThat(error(client.post().uri("/api/v2/projects/" + project + "/webhooks")
                .header(HttpHeaders.AUTHORIZATION, bearer(project, "webhooks.write"))
                .contentType(MediaType.TEXT_PLAIN).bodyValue("url=x"), 415)).containsEntry("error", "unsupported_media_type");
    }

    @Test
    void aBodyOverTheSizeLimitIsRefusedInTheErrorShape() {
        String project = newProject();
        String huge = "{\"url\":\"https://localhost:9/" + "a".repeat(400_000) + "\",\"events\":[\"action.created\"]}";
        Map<String, Object> error = json(post(project, "/webhooks", huge), 413);
        assertThat(error).containsEntry("error", "payload_too_large").containsEntry("status", 413);
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://10.0.0.7/hook", "https://169.254.169.254/latest/meta-data/",
            "https://100.64.0.1/hook", "https://192.168.1.20/hook", "https://172.16.5.4/hook", "https://[fd00:ec2::254]/hook",
            "https://[fe80::1]/hook", "https://0.0.0.0/hook", "https://[::ffff:10.0.0.1]/hook"})
    void destinationsOnInternalAddressesAre400(String url) {
        String project = newProject();
        Map<String, Object> error = error(post(project, "/webhooks", Map.of("url", url, "events", List.of("action.created"))), 400);
        assertThat((String) error.get("message")).startsWith("Field 'url' must name a host that resolves only to public");
    }

    @Test
    void aPublicIpLiteralIsAccepted() {
        // 93.184.215.14 is public: no DNS is needed for a literal
        Map<String, Object> created = createWebhook(newProject(), "https://93.184.215.14/hook", "action.created");
        assertThat(created.get("url")).isEqualTo("https://93.184.215.14/hook");
    }

    @Test
    void aProjectHasAtMost20ActiveWebhooks() {
        String project = newProject();
        for (int i = 0; i < 20; i++) {
            createWebhook(project, url(), "action.created");
        }
        Map<String, Object> body = Map.of("url", url(), "events", List.of("action.created"));
        assertThat((String) error(post(project, "/webhooks", body), 400).get("message")).contains("at most 20 active webhooks");
        // deleting one makes room again
        Object first = createdIds(project).get(0);
        json(delete(project, "/webhooks/" + first), 200);
        json(post(project, "/webhooks", body), 201);
    }

    @SuppressWarnings("unchecked")
    private List<Object> createdIds(String project) {
        List<Map<String, Object>> webhooks = (List<Map<String, Object>>) data(json(get(project, "/webhooks"), 200)).get("webhooks");
        return webhooks.stream().map(w -> w.get("id")).toList();
    }

    @Test
    void webhookIdsThatAreNotUuidsAre400() {
        String project = newProject();
        assertThat((String) error(delete(project, "/webhooks/not-a-uuid"), 400).get("message")).contains("'webhookId'");
        assertThat((String) error(post(project, "/webhooks/not-a-uuid/rotate-secret", (String) null), 400).get("message"))
                .contains("'webhookId'");
    }
}
