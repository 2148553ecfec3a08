package dev.visibility.systemtests;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.visibility.platform.testing.Http;
import dev.visibility.platform.testing.Http.Answer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 22, drill 5: the shared rate-limit store (Redis) of two gateway replicas is killed under
 * load and started again. While it is down no answer is a 5xx, each replica admits the Plus limit
 * divided by its configured replica count (2) per window, and both report the readiness component
 * {@code rateLimitStore} as DEGRADED with readiness still 200; once it is back both report it UP
 * and the two replicas together admit exactly the limit again.
 */
@Tag("drill")
class RedisOutageDrillSystemTest {

    private static final Duration WITHIN = Duration.ofSeconds(60);
    private static final int LOCAL_LIMIT = Edge.PLUS_LIMIT / 2;

    @Test
    void redisStoppedUnderLoadDegradesToPerReplicaLimitsWithoutA5xxAndExactLimitsResume() {
        Edge edge = Edge.get();
        String key = createKey(edge);
        String usage = "/api/v2/projects/" + edge.seed.projectId() + "/usage";
        List<ServiceProcess> gateways = List.of(edge.gatewayA, edge.gatewayB);
        // room for both phases in one window, so that the counts below are per window and whole
        Waits.until("a fresh rate-limit window", Duration.ofSeconds(70), Instant::now,
                now -> now.getEpochSecond() % 60 < 15);

        int redisPort = edge.redis.port();
        edge.redis.kill();
        Map<String, int[]> down = new TreeMap<>();
        int fiveHundreds = 0;
        int sent = 0;
        try {
            for (int i = 0; i < 3 * Edge.PLUS_LIMIT; i++) {
                ServiceProcess gateway = gateways.get(i % 2);
                Answer answer = Http.get(gateway.baseUrl(), usage, key);
                sent++;
                fiveHundreds += answer.status() >= 500 ? 1 : 0;
                assertThat(answer.status()).as(answer.body()).isIn(200, 429);
                assertThat(answer.header("X-RateLimit-Limit")).isEqualTo(Integer.toString(LOCAL_LIMIT));
                tally(down, gateway == edge.gatewayA ? "a" : "b", answer);
            }
            for (ServiceProcess gateway : gateways) {
                Answer ready = Http.get(gateway.managementUrl(), "/actuator/health/readiness", null);
                assertThat(ready.status()).as(ready.body()).isEqualTo(200);
                assertThat(storeStatus(ready)).isEqualTo("DEGRADED");
            }
            // per replica and window: exactly the local limit admitted (fresh local counters), the rest 429
            down.forEach((window, counts) -> assertThat(counts[0]).as("admitted in " + window)
                    .isEqualTo(Math.min(LOCAL_LIMIT, counts[0] + counts[1])));
        } finally {
            // whatever happened above: the tests after this one share these gateways and their store
            edge.redis = ServiceProcess.startRedis(redisPort);
        }
        for (ServiceProcess gateway : gateways) {
            Waits.until(gateway + " uses Redis again", WITHIN,
                    () -> Http.get(gateway.managementUrl(), "/actuator/health/readiness", null),
                    ready -> ready.status() == 200 && "UP".equals(storeStatus(ready)));
        }
        Map<String, int[]> back = new TreeMap<>();
        for (int i = 0; i < Edge.PLUS_LIMIT + 10; i++) {
            ServiceProcess gateway = gateways.get(i % 2);
            Answer answer = Http.get(gateway.baseUrl(), usage, key);
            sent++;
            fiveHundreds += answer.status() >= 500 ? 1 : 0;
            assertThat(answer.status()).as(answer.body()).isIn(200, 429);
            assertThat(answer.header("X-RateLimit-Limit")).isEqualTo(Integer.toString(Edge.PLUS_LIMIT));
            tally(back, "both", answer);
        }
        // Redis started empty: per window the two replicas together admit exactly the limit
        back.forEach((window, counts) -> assertThat(counts[0]).as("admitted in " + window)
                .isEqualTo(Math.min(Edge.PLUS_LIMIT, counts[0] + counts[1])));
        assertThat(fiveHundreds).isZero();
        System.out.printf("[drill 5] requests %d, 5xx %d, Redis down (admitted/refused per replica and window) %s,"
                + " Redis back (admitted/refused per window) %s%n", sent, fiveHundreds, describe(down), describe(back));
    }

    /** The status of the readiness component {@code rateLimitStore}. */
    @SuppressWarnings("unchecked")
    private static String storeStatus(Answer readiness) {
        Map<String, Object> components = (Map<String, Object>) readiness.json().get("components");
        return (String) ((Map<String, Object>) components.get("rateLimitStore")).get("status");
    }

    /** Counts the answer as admitted or refused in its replica's window (its X-RateLimit-Reset). */
    private static void tally(Map<String, int[]> counts, String replica, Answer answer) {
        int[] c = counts.computeIfAbsent(replica + "@" + answer.header("X-RateLimit-Reset"), k -> new int[2]);
        c[answer.status() == 200 ? 0 : 1]++;
    }

    private static String describe(Map<String, int[]> counts) {
        List<String> parts = new ArrayList<>();
        counts.forEach((window, c) -> parts.add(window + "=" + c[0] + "/" + c[1]));
        return parts.toString();
    }

    private static String createKey(Edge edge) {
        Answer created = Http.call(edge.gatewayA.baseUrl(), "POST", "/api/v2/account/projects/" + edge.seed.projectId()
                + "/api-keys", edge.seed.adminToken(), Map.of("name", "redis-drill"), Map.of());
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return (String) created.data().get("key");
    }
}
