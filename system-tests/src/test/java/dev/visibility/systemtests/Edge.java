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
 * The public edge as it runs in production, started once per test JVM, on the shared real Kafka
 * and PostgreSQL: auth-service (local profile, which seeds an account, two projects with
 * all-scopes keys and an admin token); visibility-service, actions-service and webhook-service
 * (default profile: no demo data; webhook-service accepts the tests' receivers on
 * {@code http://127.0.0.1} and retries quickly); two gateway replicas sharing a Redis rate-limit
 * store with a small Plus limit (for the 429 tests); and a third gateway ({@link #domain}) with
 * its own local store and a limit the domain tests never reach. Outcomes, traffic, agents and
 * MCP are "down" (their port has no listener).
 */
public final class Edge {

    /** Requests per window of the Plus plan in these tests. */
    public static final int PLUS_LIMIT = 40;
    /** Requests per window of every plan on the domain tests' gateway. */
    public static final int DOMAIN_LIMIT = 1_000_000;
    /** AES key of webhook-service's stored signing secrets (base64 of 32 bytes), for the tests only. */
    static final String WEBHOOK_SECRET_KEY = "q8mXk0TQq3N1z0Rr9m3mCk5xv2bq0tq4lQk4m3u8a1E=";

    /** webhook-service's arguments in these tests (also those of a drill's own webhook-service). */
    static final List<String> WEBHOOK_ARGS = List.of(
            // the tests' receivers listen on http://127.0.0.1 (DESIGN.md: local mode only)
            "--suite.webhook.allow-loopback=true",
            "--suite.webhook.allow-local-http=true",
            // 1 + 3 attempts end within a few seconds: delays of about 0.2, 0.4 and 0.8 s
            "--suite.webhook.delivery.timeout=3s",
            "--suite.webhook.delivery.backoff-base=200ms",
            "--suite.webhook.delivery.backoff-max=1s",
            // two consumers per delivery topic on this one machine (local mode has one; ignored by
            // webhook-service builds without the property)
            "--suite.webhook.delivery.delivery-concurrency=2",
            // the webhook crash drill (issue 22, drill 1) kills the service five times: the group coordinator
            // gives a killed instance's partitions to its successor once the session expires (default 45 s)
            "--spring.kafka.consumer.properties.session.timeout.ms=10000");

    private static Edge instance;

    public final ServiceProcess auth;
    public final ServiceProcess gatewayA;
    public final ServiceProcess gatewayB;
    /** The gateway the domain tests use: same routes, a limit they never reach. */
    public final ServiceProcess domain;
    public final ServiceProcess visibility;
    /** actions-service; the write drill kills it and starts it again on the same port. */
    public volatile ServiceProcess actions;
    private final Map<String, String> actionsEnv;
    /** webhook-service; the webhook crash drill kills it and starts it again on the same port. */
    public volatile ServiceProcess webhook;
    private final Map<String, String> webhookEnv;
    private int webhookRestarts;
    public final Seed seed;
    /** The environment the services were started with (shared infrastructure, keys), for tests that start more. */
    final Map<String, String> serviceEnv;
    /** The gateways' environment (adds the internal token's private key). */
    final Map<String, String> gatewayEnv;
    /** The shared rate-limit store of gateways A and B (the Redis drill stops it and starts it again). */
    public volatile ServiceProcess redis;

    private Edge() {
        List<ServiceProcess> started = new ArrayList<>();
        Map<String, String> env = new HashMap<>();
        env.put("SPRING_KAFKA_BOOTSTRAP_SERVERS", SharedInfrastructure.kafkaBootstrapServers());
        env.put("SUITE_DB_HOST", "localhost");
        env.put("SUITE_DB_PORT", Integer.toString(SharedInfrastructure.postgres().getPort()));
        env.put("SUITE_DB_NAME", SharedInfrastructure.DATABASE);
        env.put("SUITE_DB_USERNAME", SharedInfrastructure.USER);
        env.put("SUITE_DB_PASSWORD", SharedInfrastructure.PASSWORD);
        // services verify the internal token with the public key; only the gateways hold the private key
        env.put("SUITE_INTERNAL_TOKEN_PUBLIC_KEY", TestTokens.PUBLIC_KEY);
        env.put("SUITE_CURSOR_SECRET", TestTokens.CURSOR_SECRET);
        try {
            Path seedFile = Files.createTempDirectory("edge-seed").resolve("seed.json");
            ServiceProcess.prepare("auth-service", "visibility-service", "actions-service", "webhook-service", "gateway");
            ServiceProcess redis = ServiceProcess.startRedis();
            this.redis = redis;
            started.add(redis);
            // the domain gateway's port is chosen first: the dashboard's webhooks page calls the API through it
            int domainPort = ServiceProcess.freePort();
            auth = ServiceProcess.startJar("auth-service", "auth-service", env, "--spring.profiles.active=local",
                    "--suite.local.seed-file=" + seedFile, "--suite.dashboard.api-url=http://127.0.0.1:" + domainPort);
            visibility = ServiceProcess.startJar("visibility-service", "visibility-service", env);
            actionsEnv = Map.copyOf(env);
            actions = ServiceProcess.startJar("actions-service", "actions-service", env);
            Map<String, String> webhookEnv = new HashMap<>(env);
            webhookEnv.put("SUITE_WEBHOOK_SECRET_KEY", WEBHOOK_SECRET_KEY);
            this.webhookEnv = Map.copyOf(webhookEnv);
            webhook = ServiceProcess.startJar("webhook-service", "webhook-service", webhookEnv, WEBHOOK_ARGS.toArray(String[]::new));
            int down = ServiceProcess.freePort();
            List<String> routes = List.of(
                    "--suite.services.auth-service=" + auth.baseUrl(),
                    "--suite.services.visibility-service=" + visibility.baseUrl(),
                    "--suite.services.actions-service=" + actions.baseUrl(),
                    "--suite.services.outcomes-service=http://127.0.0.1:" + down,
                    "--suite.services.traffic-service=http://127.0.0.1:" + down,
                    "--suite.services.agents-service=http://127.0.0.1:" + down,
                    "--suite.services.webhook-service=" + webhook.baseUrl(),
                    "--suite.services.mcp-service=http://127.0.0.1:" + down,
                    "--suite.usage.flush-interval=1s");
            List<String> shared = new ArrayList<>(routes);
            shared.addAll(List.of(
                    "--suite.rate-limit.store=redis",
                    "--spring.data.redis.host=127.0.0.1",
                    "--spring.data.redis.port=" + redis.port(),
                    "--suite.rate-limit.plans.plus=" + PLUS_LIMIT,
                    "--suite.rate-limit.member=100000",
                    // two replicas share the limit: while Redis is down each admits half of it (issue 22)
                    "--suite.rate-limit.replicas=2"));
            List<String> unthrottled = new ArrayList<>(routes);
            unthrottled.addAll(List.of(
                    "--suite.rate-limit.store=local",
                    "--suite.rate-limit.plans.plus=" + DOMAIN_LIMIT,
                    "--suite.rate-limit.member=" + DOMAIN_LIMIT,
                    // the isolation matrix and the fuzz test send thousands of bad credentials from one address
                    "--suite.edge.failed-authentications-per-minute=" + DOMAIN_LIMIT));
            serviceEnv = Map.copyOf(env);
            Map<String, String> gatewayEnv = new HashMap<>(env);
            gatewayEnv.put("SUITE_INTERNAL_TOKEN_PRIVATE_KEY", TestTokens.PRIVATE_KEY);
            this.gatewayEnv = Map.copyOf(gatewayEnv);
            gatewayA = ServiceProcess.startJar("gateway", "gateway-a", gatewayEnv, shared.toArray(String[]::new));
            gatewayB = ServiceProcess.startJar("gateway", "gateway-b", gatewayEnv, shared.toArray(String[]::new));
            domain = ServiceProcess.startJar("gateway", "gateway-c", domainPort, gatewayEnv, unthrottled.toArray(String[]::new));
            List<ServiceProcess> services = List.of(auth, visibility, actions, webhook, gatewayA, gatewayB, domain);
            started.addAll(services);
            CompletableFuture.allOf(services.stream()
                    .map(process -> CompletableFuture.runAsync(() -> process.awaitReady(Duration.ofMinutes(5))))
                    .toArray(CompletableFuture[]::new)).join();
            seed = JsonMapper.builder().build().readValue(Files.readString(seedFile), Seed.class);
        } catch (IOException | RuntimeException e) {
            // a failed start (for example a jar being rebuilt) leaves nothing running behind for the retry
            started.forEach(ServiceProcess::stop);
            throw e instanceof RuntimeException runtime ? runtime : new IllegalStateException(e);
        }
    }

    /** Kills actions-service ({@code SIGKILL}) at once. */
    public void killActions() {
        actions.kill();
    }

    /** Starts actions-service again on its port and waits until it is ready. */
    public void restartActions() {
        actions = ServiceProcess.startJar("actions-service", "actions-service-restarted", actions.port(), actionsEnv)
                .awaitReady(Duration.ofMinutes(5));
    }

    /** Kills webhook-service ({@code SIGKILL}) at once. */
    public void killWebhook() {
        webhook.kill();
    }

    /** Starts webhook-service again on its port and waits until it is ready. */
    public void restartWebhook() {
        webhookRestarts++;
        webhook = ServiceProcess.startJar("webhook-service", "webhook-service-restarted-" + webhookRestarts, webhook.port(),
                webhookEnv, WEBHOOK_ARGS.toArray(String[]::new)).awaitReady(Duration.ofMinutes(5));
    }

    public static synchronized Edge get() {
        if (instance == null) {
            instance = new Edge();
        }
        return instance;
    }

    /** What auth-service's local seeding wrote (the same fields ./suite up puts in credentials.json). */
    public record Seed(String accountId, String projectId, String apiKey, String otherProjectId, String otherApiKey,
            String adminToken, String memberEmail, String memberPassword) {
    }
}
