package dev.visibility.systemtests;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import dev.visibility.platform.testing.SharedInfrastructure;
import dev.visibility.platform.testing.TestTokens;
import tools.jackson.databind.json.JsonMapper;

/**
 * The two processes of the sign-in and OAuth flow (issue 20), once per test JVM: auth-service in
 * the local profile on a schema of its own ({@code auth_oauth}, so that it seeds its own demo
 * account and member whatever {@link Edge} seeded) and one gateway routing to it. The other routes
 * point at a port with no listener (503). Needs only the auth-service and gateway jars.
 */
final class SignInEdge {

    private static SignInEdge instance;

    final ServiceProcess auth;
    final ServiceProcess gateway;
    final Seed seed;

    /** What the seeding wrote: the member who signs in, and the demo project. */
    record Seed(String accountId, String projectId, String otherProjectId, String memberEmail, String memberPassword) {
    }

    private SignInEdge() {
        List<ServiceProcess> started = new ArrayList<>();
        Map<String, String> env = new HashMap<>();
        env.put("SPRING_KAFKA_BOOTSTRAP_SERVERS", SharedInfrastructure.kafkaBootstrapServers());
        env.put("SUITE_DB_HOST", "localhost");
        env.put("SUITE_DB_PORT", Integer.toString(SharedInfrastructure.postgres().getPort()));
        env.put("SUITE_DB_NAME", SharedInfrastructure.DATABASE);
        env.put("SUITE_DB_USERNAME", SharedInfrastructure.USER);
        env.put("SUITE_DB_PASSWORD", SharedInfrastructure.PASSWORD);
        env.put("SUITE_INTERNAL_TOKEN_PUBLIC_KEY", TestTokens.PUBLIC_KEY);
        env.put("SUITE_CURSOR_SECRET", TestTokens.CURSOR_SECRET);
        try {
            Path seedFile = Files.createTempDirectory("oauth-seed").resolve("seed.json");
            ServiceProcess.prepare("auth-service", "gateway");
            // its own schema and its own consumer group: in the group of Edge's auth-service it would take
            // some usage.requests partitions and count them into auth_oauth (EdgeSystemTest's usage was lost)
            auth = ServiceProcess.startJar("auth-service", "auth-service-oauth", env, "--spring.profiles.active=local",
                    "--suite.db.schema=auth_oauth", "--suite.local.seed-file=" + seedFile,
                    "--spring.kafka.consumer.group-id=auth-service-oauth");
            started.add(auth);
            int down = ServiceProcess.freePort();
            List<String> routes = new ArrayList<>(List.of("--suite.services.auth-service=" + auth.baseUrl()));
            for (String other : List.of("visibility-service", "actions-service", "outcomes-service", "traffic-service",
                    "agents-service", "webhook-service", "mcp-service")) {
                routes.add("--suite.services." + other + "=http://127.0.0.1:" + down);
            }
            Map<String, String> gatewayEnv = new HashMap<>(env);
            gatewayEnv.put("SUITE_INTERNAL_TOKEN_PRIVATE_KEY", TestTokens.PRIVATE_KEY);
            gateway = ServiceProcess.startJar("gateway", "gateway-oauth", gatewayEnv, routes.toArray(String[]::new));
            started.add(gateway);
            CompletableFuture.allOf(started.stream()
                    .map(process -> CompletableFuture.runAsync(() -> process.awaitReady(Duration.ofMinutes(5))))
                    .toArray(CompletableFuture[]::new)).join();
            seed = JsonMapper.builder().build().readValue(Files.readString(seedFile), Seed.class);
        } catch (IOException | RuntimeException e) {
            started.forEach(ServiceProcess::stop);
            throw e instanceof RuntimeException runtime ? runtime : new IllegalStateException(e);
        }
    }

    static synchronized SignInEdge get() {
        if (instance == null) {
            instance = new SignInEdge();
        }
        return instance;
    }
}
