package dev.visibility.systemtests;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import dev.visibility.platform.testing.SharedInfrastructure;
import dev.visibility.platform.testing.TestTokens;
import tools.jackson.databind.json.JsonMapper;

/**
 * The public edge as it runs in production, started once per test JVM: auth-service (local
 * profile, which seeds an account, two projects with all-scopes keys and an admin token) and two
 * gateway replicas sharing a Redis rate-limit store, on the shared real Kafka and PostgreSQL.
 * Every other service is "down" (its port has no listener).
 */
public final class Edge {

    /** Requests per window of the Plus plan in these tests. */
    public static final int PLUS_LIMIT = 40;

    private static Edge instance;

    public final ServiceProcess auth;
    public final ServiceProcess gatewayA;
    public final ServiceProcess gatewayB;
    public final Seed seed;

    private Edge() {
        Map<String, String> env = new HashMap<>();
        env.put("SPRING_KAFKA_BOOTSTRAP_SERVERS", SharedInfrastructure.kafkaBootstrapServers());
        env.put("SUITE_DB_HOST", "localhost");
        env.put("SUITE_DB_PORT", Integer.toString(SharedInfrastructure.postgres().getPort()));
        env.put("SUITE_DB_NAME", SharedInfrastructure.DATABASE);
        env.put("SUITE_DB_USERNAME", SharedInfrastructure.USER);
        env.put("SUITE_DB_PASSWORD", SharedInfrastructure.PASSWORD);
        env.put("SUITE_INTERNAL_TOKEN_SECRET", TestTokens.SECRET);
        env.put("SUITE_CURSOR_SECRET", TestTokens.CURSOR_SECRET);
        try {
            Path seedFile = Files.createTempDirectory("edge-seed").resolve("seed.json");
            ServiceProcess redis = ServiceProcess.startRedis();
            auth = ServiceProcess.startJar("auth-service", "auth-service", env, "--spring.profiles.active=local",
                    "--suite.local.seed-file=" + seedFile);
            int down = ServiceProcess.freePort();
            String[] gatewayArgs = {
                    "--suite.services.auth-service=" + auth.baseUrl(),
                    "--suite.services.visibility-service=http://127.0.0.1:" + down,
                    "--suite.services.actions-service=http://127.0.0.1:" + down,
                    "--suite.services.outcomes-service=http://127.0.0.1:" + down,
                    "--suite.services.traffic-service=http://127.0.0.1:" + down,
                    "--suite.services.agents-service=http://127.0.0.1:" + down,
                    "--suite.services.webhook-service=http://127.0.0.1:" + down,
                    "--suite.services.mcp-service=http://127.0.0.1:" + down,
                    "--suite.rate-limit.store=redis",
                    "--spring.data.redis.host=127.0.0.1",
                    "--spring.data.redis.port=" + redis.port(),
                    "--suite.rate-limit.plans.plus=" + PLUS_LIMIT,
                    "--suite.rate-limit.member=100000",
                    "--suite.usage.flush-interval=1s"};
            gatewayA = ServiceProcess.startJar("gateway", "gateway-a", env, gatewayArgs);
            gatewayB = ServiceProcess.startJar("gateway", "gateway-b", env, gatewayArgs);
            CompletableFuture.allOf(
                    CompletableFuture.runAsync(() -> auth.awaitReady(Duration.ofMinutes(3))),
                    CompletableFuture.runAsync(() -> gatewayA.awaitReady(Duration.ofMinutes(3))),
                    CompletableFuture.runAsync(() -> gatewayB.awaitReady(Duration.ofMinutes(3)))).join();
            seed = JsonMapper.builder().build().readValue(Files.readString(seedFile), Seed.class);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public static synchronized Edge get() {
        if (instance == null) {
            instance = new Edge();
        }
        return instance;
    }

    /** What auth-service's local seeding wrote (the same fields ./suite up puts in credentials.json). */
    public record Seed(String accountId, String projectId, String apiKey, String otherProjectId, String otherApiKey,
            String adminToken) {
    }
}
