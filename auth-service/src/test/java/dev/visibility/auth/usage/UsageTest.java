package dev.visibility.auth.usage;

import static dev.visibility.platform.testing.Http.data;
import static dev.visibility.platform.testing.Http.error;
import static dev.visibility.platform.testing.Http.json;
import static dev.visibility.platform.testing.Http.meta;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import dev.visibility.auth.accounts.Plan;
import dev.visibility.platform.testing.Http;
import dev.visibility.platform.testing.TestKafka;
import dev.visibility.auth.support.TestAccounts;
import dev.visibility.auth.support.TestAccounts.Team;
import dev.visibility.platform.consumer.DeadLetters;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.events.UsageRecorded;
import dev.visibility.platform.testing.TestTokens;
import dev.visibility.platform.security.Caller;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Spec 5.7: every key reads its project's status and usage without any scope. Request counts come
 * from {@code usage.requests} through the real broker, counted once per eventId.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class UsageTest {

    private static final Duration WITHIN = Duration.ofSeconds(45);

    @LocalServerPort
    int port;
    @Autowired
    TestAccounts accounts;

    private WebTestClient client;

    @BeforeEach
    void setUp() {
        client = Http.client(port);
    }

    private Map<String, Object> usage(Team team) {
        String bearer = TestAccounts.keyBearer(team.accountId(), team.projectId(), Set.of());
        Map<String, Object> envelope = json(client.get().uri("/api/v2/projects/" + team.projectId() + "/usage")
                .header(HttpHeaders.AUTHORIZATION, bearer), 200);
        assertThat(meta(envelope)).containsEntry("projectId", team.projectId().toString());
        return data(envelope);
    }

    private long total(Team team) {
        return ((Number) ((Map<?, ?>) usage(team).get("requests")).get("total")).longValue();
    }

    private long awaitTotalAtLeast(Team team, long expected) {
        return await("usage total of " + team.projectId() + " at least " + expected).atMost(WITHIN)
                .until(() -> total(team), total -> total >= expected);
    }

    private static String record(UUID eventId, UUID projectId, Instant intervalStart, long requests) {
        return Http.toJson(new UsageRecorded(eventId, projectId.toString(), UUID.randomUUID().toString(), intervalStart, requests));
    }

    @Test
    void usageIsReadableWithAnEmptyScopeSetAndCoversTheCurrentUtcMonth() {
        Team team = accounts.team(Plan.PLUS);
        YearMonth month = YearMonth.now(ZoneOffset.UTC);
        Map<String, Object> usage = usage(team);
        assertThat(usage.keySet()).containsExactlyInAnyOrder("projectId", "paused", "plan", "apiAccess", "period", "requests");
        assertThat(usage).containsEntry("projectId", team.projectId().toString()).containsEntry("paused", false)
                .containsEntry("plan", "plus").containsEntry("apiAccess", true)
                .containsEntry("period", Map.of("dateFrom", month.atDay(1).toString(), "dateTo", month.atEndOfMonth().toString()))
                .containsEntry("requests", Map.of("total", 0));
    }

    @Test
    void pausedProjectOnAFreePlanSaysSo() {
        Team team = accounts.team(Plan.FREE);
        accounts.pause(team.projectId());
        assertThat(usage(team)).containsEntry("paused", true).containsEntry("plan", "free").containsEntry("apiAccess", false);
    }

    @Test
    void requestCountsAreSummedOncePerEventIdForTheCurrentMonth() {
        Team team = accounts.team(Plan.PLUS);
        UUID first = UUID.randomUUID();
        Instant now = Instant.now();
        Instant lastMonth = YearMonth.now(ZoneOffset.UTC).atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC).minusSeconds(60);
        String key = team.projectId().toString();
        // one partition per key: the duplicate and last month's record are applied before the last one
        TestKafka.publish(Topics.USAGE_REQUESTS, key,
                record(first, team.projectId(), now, 5),
                record(first, team.projectId(), now, 5),
                record(UUID.randomUUID(), team.projectId(), lastMonth, 100),
                record(UUID.randomUUID(), team.projectId(), now, 7));

        assertThat(awaitTotalAtLeast(team, 12)).isEqualTo(12);
    }

    @Test
    void unusableRecordsGoToTheDeadLetterTopicWithoutBlockingThePartition() {
        Team team = accounts.team(Plan.PLUS);
        String key = team.projectId().toString();
        TestKafka.publish(Topics.USAGE_REQUESTS, key,
                "not json at all",
                "{\"eventId\": \"" + UUID.randomUUID() + "\", \"projectId\": \"not-a-uuid\", \"intervalStart\": \"2026-01-01T00:00:00Z\", \"requests\": 1}",
                "{\"projectId\": \"" + key + "\", \"intervalStart\": \"2026-01-01T00:00:00Z\", \"requests\": 1}",
                record(UUID.randomUUID(), team.projectId(), Instant.now(), -3),
                record(UUID.randomUUID(), team.projectId(), Instant.now(), 4));

        assertThat(awaitTotalAtLeast(team, 4)).isEqualTo(4);
        assertThat(TestKafka.awaitRecords(DeadLetters.topic(Topics.USAGE_REQUESTS), r -> key.equals(r.key()), 4, WITHIN))
                .extracting(r -> r.value()).hasSize(4).first().isEqualTo("not json at all");
    }

    @Test
    void unknownProjectIs404AndMalformedProjectIdIs400() {
        String unknown = UUID.randomUUID().toString();
        error(client.get().uri("/api/v2/projects/" + unknown + "/usage")
                .header(HttpHeaders.AUTHORIZATION, TestTokens.bearer(TestTokens.forProject(unknown))), 404);
        String bearer = TestTokens.bearer(TestTokens.mint(new Caller(TestTokens.ACCOUNT, "nope", "k", null, null, Set.of(), Set.of())));
        assertThat((String) error(client.get().uri("/api/v2/projects/nope/usage").header(HttpHeaders.AUTHORIZATION, bearer), 400)
                .get("message")).contains("projectId");
    }

    @Test
    void anotherProjectsUsageIs404() {
        Team team = accounts.team(Plan.PLUS);
        Team other = accounts.team(Plan.PLUS);
        error(client.get().uri("/api/v2/projects/" + other.projectId() + "/usage")
                .header(HttpHeaders.AUTHORIZATION, TestAccounts.keyBearer(team.accountId(), team.projectId(), Set.of())), 404);
    }
}
