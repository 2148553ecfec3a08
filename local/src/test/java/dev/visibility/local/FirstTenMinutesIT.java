package dev.visibility.local;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.sun.net.httpserver.HttpServer;
import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.TerminalFailureException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.fail;

/**
 * The newcomer's path, end to end, against the real suite started exactly as {@code ./suite up}
 * starts it (a second suite beside a developer's: its own state directory under
 * {@code local/target/e2e-suite}, every port plus 1000 ({@code -Dsuite.it.port-offset}), no class-data trainer):
 * a narrowed key made through the account API, a webhook subscribed with it, a tracking run
 * published by {@code ./suite simulate tracking-run} as an internal producer, the signed
 * deliveries verified, the key refused outside its scopes and after revocation,
 * {@code ./suite webhooks listen} as a process, and {@code ./suite down} leaving nothing behind.
 *
 * <p>Needs the service jars ({@code <module>/target/<module>.jar}), which the root reactor builds
 * before this module, and {@code local/target/local.jar} and {@code runtime-classpath.txt}
 * ({@code package} of this module). Timings are printed to the test's output file.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FirstTenMinutesIT {

    // -Dsuite.it.port-offset moves it when two checkouts run this test at the same time
    static final int PORT_OFFSET = Integer.getInteger("suite.it.port-offset", 1000);
    static final List<String> SERVICES = List.of("gateway", "auth-service", "visibility-service", "actions-service",
            "outcomes-service", "traffic-service", "agents-service", "webhook-service", "mcp-service");
    // every port of the offset suite: gateway and services, Kafka and its controller, PostgreSQL
    static final List<Integer> PORTS = List.of(8080, 8081, 8082, 8083, 8084, 8085, 8086, 8087, 8088, 9092, 9093, 5433,
                    8580, 8581, 8582, 8583, 8584, 8585, 8586, 8587, 8588)
            .stream().map(p -> p + PORT_OFFSET).toList();
    static final Duration UP_TIMEOUT = Duration.ofMinutes(8);
    static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(90);
    static final Pattern RUN_ID = Pattern.compile("tracking run ([0-9a-f-]{36}) published");
    static final Pattern HEX64 = Pattern.compile("[0-9a-f]{64}");
    static final JsonMapper JSON = JsonMapper.builder().build();

    static Path root;
    static Path state;
    static Path logs;
    static String gateway;
    static String projectId;
    static String accountId;
    static String apiKey;
    static String adminToken;
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void suiteUp() throws Exception {
        root = Path.of(System.getProperty("suite.root", "..")).toAbsolutePath().normalize();
        state = Path.of(System.getProperty("suite.it.state", "target/e2e-suite")).toAbsolutePath().normalize();
        logs = state.getParent().resolve("e2e-logs");
        Files.createDirectories(logs);
        List<String> missing = new ArrayList<>();
        for (String service : SERVICES) {
            if (!Files.isRegularFile(root.resolve(service + "/target/" + service + ".jar"))) {
                missing.add(service + "/target/" + service + ".jar");
            }
        }
        for (String file : List.of("local/target/local.jar", "local/target/runtime-classpath.txt")) {
            if (!Files.isRegularFile(root.resolve(file))) {
                missing.add(file);
            }
        }
        if (!missing.isEmpty()) {
            fail("the end-to-end test runs the built suite, and these are missing: " + missing
                    + "; build them first (mvn -B verify at the root builds every module before local)");
        }
        // a suite left behind by an interrupted run is stopped; its data goes, the extracted jars stay
        suite(List.of("down"), Duration.ofMinutes(2), "down-before");
        if (Files.isDirectory(state)) {
            try (Stream<Path> children = Files.list(state)) {
                for (Path child : children.filter(c -> !c.getFileName().toString().equals("apps")).toList()) {
                    deleteRecursively(child);
                }
            }
        }
        long started = System.nanoTime();
        Result up = suite(List.of("up"), UP_TIMEOUT, "up");
        System.out.printf("TIMING ./suite up: %.1f s%n", seconds(started));
        assertThat(up.exitCode()).as("./suite up exit code; its output:%n%s", up.output()).isZero();

        JsonNode credentials = JSON.readTree(Files.readString(state.resolve("credentials.json")));
        gateway = credentials.path("gatewayUrl").asString();
        projectId = credentials.path("projectId").asString();
        accountId = credentials.path("accountId").asString();
        apiKey = credentials.path("apiKey").asString();
        adminToken = credentials.path("adminToken").asString();
        assertThat(gateway).isEqualTo("http://127.0.0.1:" + (8080 + PORT_OFFSET));
        // the summary of up names the gateway and the demo key and shows ready-to-paste commands
        assertThat(up.output()).contains("gateway:     " + gateway).contains("demo key:    " + apiKey)
                .contains("curl -s -H \"Authorization: Bearer " + apiKey + "\" \"" + gateway + "/api/v2/projects/" + projectId
                        + "/visibility/summary?days=90\"")
                .contains("./suite webhooks listen").contains("./suite simulate tracking-run");
        assertThat(credentials.path("examples").path("usage").asString())
                .isEqualTo("curl -s -H \"Authorization: Bearer " + apiKey + "\" \"" + gateway + "/api/v2/projects/" + projectId + "/usage\"");
        // issue 23: the OpenAPI document, without a key
        assertThat(credentials.path("examples").path("openapi").asString())
                .isEqualTo("curl -s \"" + gateway + "/api/v2/openapi.json\"");
    }

    @AfterAll
    static void suiteDown() throws Exception {
        // always, even after a failure: nothing of the test suite may outlive the test
        Result down = suite(List.of("down"), Duration.ofMinutes(2), "down-after");
        System.out.println("./suite down (after all): " + down.output().strip());
    }

    @Test
    @Order(1)
    void narrowedKeyReceivesSignedTrackingEventsAndIsRefusedOutsideItsScopesAndAfterRevocation() throws Exception {
        // spec 5.5: a key narrowed to a set of scopes, created by a member with settings.manage (5.3)
        HttpResponse<String> created = call("POST", "/api/v2/account/projects/" + projectId + "/api-keys", adminToken,
                "{\"name\":\"e2e narrowed\",\"scopes\":[\"webhooks.read\",\"webhooks.write\",\"visibility.read\"]}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        JsonNode key = JSON.readTree(created.body()).path("data");
        String narrowed = key.path("key").asString();
        String keyId = key.path("id").asString();
        assertThat(narrowed).matches("svc_live_[0-9a-f]{64}"); // spec 5.1
        assertThat(strings(key.path("scopes"))).containsExactlyInAnyOrder("webhooks.read", "webhooks.write", "visibility.read");

        Receiver receiver = Receiver.start();
        String webhookId = null;
        try {
            // E13 with the narrowed key: 201 with the secret, the only time it is shown
            HttpResponse<String> subscribed = call("POST", "/api/v2/projects/" + projectId + "/webhooks", narrowed,
                    "{\"url\":\"" + receiver.url() + "\",\"events\":[\"search-tracking.completed\",\"visibility.changed\"]}");
            assertThat(subscribed.statusCode()).as(subscribed.body()).isEqualTo(201);
            JsonNode webhook = JSON.readTree(subscribed.body()).path("data");
            webhookId = webhook.path("id").asString();
            String secret = webhook.path("secret").asString();
            assertThat(secret).isNotBlank();
            assertThat(webhook.path("isActive").asBoolean()).isTrue();
            assertThat(strings(webhook.path("events"))).containsExactly("search-tracking.completed", "visibility.changed");

            long published = System.nanoTime();
            String runId = simulateTrackingRun("simulate-1");
            LocalDate capturedOn = LocalDate.now(ZoneOffset.UTC);
            Map<String, Delivery> deliveries = receiver.awaitRun(runId, Set.of("search-tracking.completed", "visibility.changed"));
            System.out.printf("TIMING simulate tracking-run -> both deliveries at the test's receiver: %.1f s%n", seconds(published));

            for (Delivery delivery : deliveries.values()) {
                // spec 6.3: the headers, exactly
                assertThat(delivery.header("Content-Type")).isEqualTo("application/json");
                assertThat(delivery.header("User-Agent")).isEqualTo("Service-Webhook/2.0");
                assertThat(delivery.header("X-Service-Event")).isEqualTo(delivery.event());
                assertThat(delivery.header("X-Service-Signature")).matches(HEX64);
                // spec 6.4.1: HMAC-SHA256 of the raw body with the subscription's secret, and no other secret
                assertThat(Signature.verifies(secret, delivery.body(), delivery.header("X-Service-Signature"))).isTrue();
                assertThat(Signature.verifies(secret + "x", delivery.body(), delivery.header("X-Service-Signature"))).isFalse();
                // DESIGN.md: X-Service-Delivery, a stable id per delivery
                assertThat(UUID.fromString(delivery.header("X-Service-Delivery")).toString())
                        .isEqualTo(delivery.header("X-Service-Delivery"));
                // spec 6.1: the envelope
                JsonNode envelope = delivery.json();
                assertThat(fieldNames(envelope)).containsExactlyInAnyOrder("event", "projectId", "accountId", "timestamp", "data");
                assertThat(envelope.path("projectId").asString()).isEqualTo(projectId);
                assertThat(envelope.path("accountId").asString()).isEqualTo(accountId);
                assertThat(envelope.path("timestamp").asString()).endsWith("Z");
                assertThat(Instant.parse(envelope.path("timestamp").asString())).isBetween(Instant.now().minusSeconds(600), Instant.now());
            }
            // spec 6.2: search-tracking.completed carries runId and finalStatus
            JsonNode completed = deliveries.get("search-tracking.completed").json().path("data");
            assertThat(completed.path("runId").asString()).isEqualTo(runId);
            assertThat(completed.path("finalStatus").asString()).isEqualTo("completed");
            // spec 6.2: visibility.changed carries runId, capturedOn, metrics (four fields) and previousMetrics
            JsonNode changed = deliveries.get("visibility.changed").json().path("data");
            assertThat(changed.path("runId").asString()).isEqualTo(runId);
            assertThat(LocalDate.parse(changed.path("capturedOn").asString(), DateTimeFormatter.ISO_LOCAL_DATE))
                    .isBetween(capturedOn.minusDays(1), capturedOn);
            JsonNode metrics = changed.path("metrics");
            assertThat(fieldNames(metrics)).containsExactlyInAnyOrder("visibilityScore", "citationCount", "brandMentionCount", "sampleCount");
            assertThat(metrics.path("visibilityScore").isNumber()).isTrue();
            assertThat(metrics.path("citationCount").isIntegralNumber()).isTrue();
            assertThat(metrics.path("brandMentionCount").isIntegralNumber()).isTrue();
            // the simulated run: 3 prompts x 3 platforms; each visible sample cites the own domain once and
            // names the own brand 1 to 3 times (TrackingRunSimulation), so the metrics follow from the citations
            assertThat(metrics.path("sampleCount").asInt()).isEqualTo(9);
            int visible = metrics.path("citationCount").asInt();
            assertThat(metrics.path("brandMentionCount").asInt()).isBetween(visible, 3 * visible);
            assertThat(metrics.path("visibilityScore").decimalValue().setScale(1, RoundingMode.HALF_UP))
                    .isEqualByComparingTo(BigDecimal.valueOf(visible * 100L).divide(BigDecimal.valueOf(9), 1, RoundingMode.HALF_UP));
            JsonNode previous = changed.path("previousMetrics");
            if (!previous.isNull()) {
                assertThat(fieldNames(previous)).containsExactlyInAnyOrder("visibilityScore", "citationCount", "brandMentionCount",
                        "sampleCount", "capturedOn");
                assertThat(LocalDate.parse(previous.path("capturedOn").asString())).isBeforeOrEqualTo(capturedOn);
            }

            // spec 5.5 and 7: the narrowed key may read visibility, not actions
            HttpResponse<String> inScope = call("GET", "/api/v2/projects/" + projectId + "/visibility/summary", narrowed, null);
            assertThat(inScope.statusCode()).as(inScope.body()).isEqualTo(200);
            HttpResponse<String> outOfScope = call("GET", "/api/v2/projects/" + projectId + "/actions/list", narrowed, null);
            assertThat(outOfScope.statusCode()).isEqualTo(403);
            JsonNode forbidden = JSON.readTree(outOfScope.body());
            assertThat(forbidden.path("error").asString()).isEqualTo("forbidden");
            assertThat(forbidden.path("status").asInt()).isEqualTo(403);
            assertThat(forbidden.path("reason").asString()).isEqualTo("missing_scope");

            // spec 5.3: revocation takes effect at once (here: within a few seconds, the gateway's caches included)
            HttpResponse<String> revoked = call("DELETE", "/api/v2/account/projects/" + projectId + "/api-keys/" + keyId, adminToken, null);
            assertThat(revoked.statusCode()).as(revoked.body()).isEqualTo(200);
            assertThat(JSON.readTree(revoked.body()).path("data").path("revokedAt").isString()).isTrue();
            long revokedAt = System.nanoTime();
            HttpResponse<String> refused = await("the revoked key refused").atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> call("GET", "/api/v2/projects/" + projectId + "/webhooks", narrowed, null), r -> r.statusCode() == 401);
            System.out.printf("TIMING revocation -> 401 at the gateway: %.2f s%n", seconds(revokedAt));
            assertThat(refused.statusCode()).as("the revoked key after 10 s: %s", refused.body()).isEqualTo(401);
            assertThat(JSON.readTree(refused.body()).path("error").asString()).isEqualTo("unauthorized");
        } finally {
            if (webhookId != null) {
                call("DELETE", "/api/v2/projects/" + projectId + "/webhooks/" + webhookId, apiKey, null);
            }
            receiver.stop();
        }
    }

    @Test
    @Order(2)
    void listenPrintsVerifiedDeliveriesAndDeletesItsWebhookOnSigterm() throws Exception {
        Path output = logs.resolve("listen.log");
        ProcessBuilder builder = new ProcessBuilder(List.of(root.resolve("suite").toString(), "webhooks", "listen", "--events",
                "search-tracking.completed,visibility.changed"))
                .directory(root.toFile()).redirectErrorStream(true).redirectOutput(output.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().putAll(settings());
        Process listen = builder.start();
        try {
            String ready = awaitLine(output, Pattern.compile("Ready: listening on (\\S+) as webhook ([0-9a-f-]{36})"),
                    Duration.ofSeconds(60), listen);
            Matcher m = Pattern.compile("as webhook ([0-9a-f-]{36})").matcher(ready);
            assertThat(m.find()).isTrue();
            String webhookId = m.group(1);
            assertThat(listedWebhooks()).contains(webhookId);

            long published = System.nanoTime();
            String runId = simulateTrackingRun("simulate-2");
            awaitLine(output, Pattern.compile("search-tracking\\.completed .*signature verified .*runId=" + runId), DELIVERY_TIMEOUT, listen);
            awaitLine(output, Pattern.compile("visibility\\.changed .*signature verified .*runId=" + runId), DELIVERY_TIMEOUT, listen);
            System.out.printf("TIMING simulate tracking-run -> both 'signature verified' lines of ./suite webhooks listen: %.1f s%n",
                    seconds(published));
            assertThat(Files.readString(output)).doesNotContain("signature INVALID");

            listen.destroy(); // SIGTERM: the shutdown hook deletes the subscription (E15)
            assertThat(listen.waitFor(30, TimeUnit.SECONDS)).as("listen stops within 30 s of SIGTERM").isTrue();
            assertThat(Files.readString(output)).contains("webhook " + webhookId + " deleted");
            assertThat(listedWebhooks()).doesNotContain(webhookId); // E14 lists only active subscriptions
        } finally {
            listen.destroyForcibly();
        }
    }

    /**
     * Issue 23: each service's Prometheus endpoint answers on its management port (its port + 500),
     * with the meters docs/operations.md names; the gateway's public port serves no actuator.
     */
    @Test
    @Order(3)
    void metricsAnswerOnManagementPortsAndNeverThroughTheGateway() throws Exception {
        Map<String, String> scrapes = new LinkedHashMap<>();
        for (int i = 0; i < SERVICES.size(); i++) {
            String service = SERVICES.get(i);
            HttpResponse<String> scrape = HTTP.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + (8580 + i + PORT_OFFSET) + "/actuator/prometheus"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(scrape.statusCode()).as(service).isEqualTo(200);
            assertThat(scrape.body()).as(service).contains("application=\"" + service + "\"").contains("jvm_memory_used_bytes");
            scrapes.put(service, scrape.body());
        }
        // the requests of the tests before: per route at the gateway, the key cache, webhook attempts, consumer lag
        assertThat(scrapes.get("gateway")).contains("spring_cloud_gateway_requests_seconds_count{")
                .containsPattern("routeId=\"[a-z0-9-]+\"").contains("cache_gets_total{").contains("cache=\"credentials\"");
        assertThat(scrapes.get("webhook-service")).contains("webhook_attempts_seconds_count{").contains("outcome=\"success\"");
        // a partition's lag metric exists once its consumer has had a fetch answered, which an idle consumer
        // gets after the fetch wait (5 s in the suite); Micrometer binds the Kafka client's new metrics at
        // its refresh, once a minute: wait for it rather than for the refresh to have come before the scrape
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        String visibility = scrapes.get("visibility-service");
        while (!(visibility.contains("kafka_consumer_fetch_manager_records_lag{") && visibility.contains("topic=\"tracking.runs\""))
                && System.nanoTime() < deadline) {
            Thread.sleep(1_000);
            visibility = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + (8580 + SERVICES.indexOf("visibility-service")
                    + PORT_OFFSET) + "/actuator/prometheus")).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()).body();
        }
        assertThat(visibility).contains("kafka_consumer_fetch_manager_records_lag").contains("topic=\"tracking.runs\"");
        for (String path : List.of("/actuator/prometheus", "/actuator/health", "/actuator/health/readiness")) {
            HttpResponse<String> through = HTTP.send(HttpRequest.newBuilder(URI.create(gateway + path))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(through.statusCode()).as(path + " on the gateway's public port").isEqualTo(404);
            assertThat(through.body()).as(path).contains("\"error\"").doesNotContain("jvm_");
        }
    }

    @Test
    @Order(4)
    void downLeavesNoProcessAndNoOpenPort() throws Exception {
        List<Long> pids = new ArrayList<>();
        try (Stream<Path> files = Files.list(state.resolve("pids"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".pid")).toList()) {
                pids.add(Long.parseLong(Files.readAllLines(file).get(0).trim()));
            }
        }
        assertThat(pids).as("pid files of the running suite").hasSize(SERVICES.size() + 2);
        long started = System.nanoTime();
        Result down = suite(List.of("down"), Duration.ofMinutes(2), "down");
        System.out.printf("TIMING ./suite down: %.1f s%n", seconds(started));
        assertThat(down.exitCode()).as(down.output()).isZero();
        for (long pid : pids) {
            assertThat(running(pid)).as("process %d after down", pid).isFalse();
        }
        for (int port : PORTS) {
            assertThat(open(port)).as("port %d after down", port).isFalse();
        }
        List<String> left = new ArrayList<>();
        for (ProcessHandle p : ProcessHandle.allProcesses().toList()) {
            if (p.info().commandLine().orElse("").contains(state.toString()) && running(p.pid())) {
                left.add(p.pid() + " " + p.info().commandLine().orElse(""));
            }
        }
        assertThat(left).as("processes whose command line names the test suite's state directory").isEmpty();
    }

    // -----------------------------------------------------------------------------------------

    private static String simulateTrackingRun(String name) throws Exception {
        Result simulate = suite(List.of("simulate", "tracking-run"), Duration.ofMinutes(2), name);
        assertThat(simulate.exitCode()).as(simulate.output()).isZero();
        assertThat(simulate.output()).contains("search-tracking.completed and visibility.changed will be delivered to subscribed webhooks");
        Matcher m = RUN_ID.matcher(simulate.output());
        assertThat(m.find()).as(simulate.output()).isTrue();
        return m.group(1);
    }

    private static List<String> listedWebhooks() throws Exception {
        HttpResponse<String> list = call("GET", "/api/v2/projects/" + projectId + "/webhooks", apiKey, null);
        assertThat(list.statusCode()).as(list.body()).isEqualTo(200);
        List<String> ids = new ArrayList<>();
        for (JsonNode webhook : JSON.readTree(list.body()).path("data").path("webhooks")) {
            ids.add(webhook.path("id").asString());
        }
        return ids;
    }

    private static HttpResponse<String> call(String method, String path, String bearer, String json) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gateway + path)).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + bearer);
        if (json != null) {
            request.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(json));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    record Result(int exitCode, String output) {
    }

    /** Runs ./suite with the test suite's settings; its output goes to target/e2e-logs/<name>.log too. */
    static Result suite(List<String> arguments, Duration timeout, String name) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(root.resolve("suite").toString());
        command.addAll(arguments);
        Path output = logs.resolve(name + ".log");
        ProcessBuilder builder = new ProcessBuilder(command).directory(root.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().putAll(settings());
        Process process = builder.start();
        if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("./suite " + String.join(" ", arguments) + " did not finish within " + timeout + "; output:\n" + Files.readString(output));
        }
        String text = Files.readString(output);
        System.out.println("---- ./suite " + String.join(" ", arguments) + " (exit " + process.exitValue() + ")\n" + text);
        return new Result(process.exitValue(), text);
    }

    static Map<String, String> settings() {
        Map<String, String> env = new HashMap<>();
        env.put("SUITE_STATE_DIR", state.toString());
        env.put("SUITE_PORT_OFFSET", Integer.toString(PORT_OFFSET));
        env.put("SUITE_CDS", "no");
        // the loaded 2-core CI machine: every service gets up to 6 minutes to become ready
        env.put("SUITE_START_TIMEOUT", "360");
        return env;
    }

    private static String awaitLine(Path output, Pattern pattern, Duration timeout, Process process) throws Exception {
        try {
            return await("a line matching " + pattern).atMost(timeout).pollInterval(Duration.ofMillis(100))
                    .failFast("the process exited before printing " + pattern, () -> !process.isAlive())
                    .until(() -> {
                        if (!Files.exists(output)) {
                            return null;
                        }
                        return Files.readAllLines(output, StandardCharsets.UTF_8).stream()
                                .filter(line -> pattern.matcher(line).find()).findFirst().orElse(null);
                    }, line -> line != null);
        } catch (ConditionTimeoutException | TerminalFailureException e) {
            return fail(e.getMessage() + ":\n" + Files.readString(output));
        }
    }

    /** Alive and not a zombie (an exited child that its parent, here maybe PID 1, has not reaped yet). */
    private static boolean running(long pid) throws IOException {
        Path stat = Path.of("/proc/" + pid + "/stat");
        if (Files.exists(stat)) {
            String text;
            try {
                text = Files.readString(stat);
            } catch (IOException e) {
                return false; // gone while reading
            }
            return !text.substring(text.lastIndexOf(')') + 2).startsWith("Z");
        }
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    private static boolean open(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static double seconds(long startedNanos) {
        return (System.nanoTime() - startedNanos) / 1e9;
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asString()));
        return values;
    }

    private static Set<String> fieldNames(JsonNode object) {
        return new TreeSet<>(object.propertyNames());
    }

    private static void deleteRecursively(Path path) throws IOException {
        if (Files.isDirectory(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            try (Stream<Path> children = Files.list(path)) {
                for (Path child : children.toList()) {
                    deleteRecursively(child);
                }
            }
        }
        Files.deleteIfExists(path);
    }

    /** One webhook delivery as the test's receiver got it: the raw body bytes and the headers. */
    record Delivery(String event, byte[] body, Map<String, String> headers) {

        String header(String name) {
            return headers.get(name.toLowerCase(java.util.Locale.ROOT));
        }

        JsonNode json() {
            return JSON.readTree(body);
        }
    }

    /** The test's own receiver (a JDK HttpServer on 127.0.0.1), answering 200 to every delivery. */
    record Receiver(HttpServer server, List<Delivery> deliveries) {

        static Receiver start() throws IOException {
            List<Delivery> deliveries = new CopyOnWriteArrayList<>();
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
            server.createContext("/hooks", exchange -> {
                try (exchange) {
                    byte[] body = exchange.getRequestBody().readAllBytes();
                    Map<String, String> headers = new HashMap<>();
                    exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(java.util.Locale.ROOT),
                            String.join(",", values)));
                    deliveries.add(new Delivery(headers.getOrDefault("x-service-event", ""), body, headers));
                    exchange.sendResponseHeaders(200, -1);
                }
            });
            server.start();
            return new Receiver(server, deliveries);
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort() + "/hooks";
        }

        /** The first delivery of each event whose data.runId is the run's; fails after the delivery time-out. */
        Map<String, Delivery> awaitRun(String runId, Set<String> events) throws InterruptedException {
            Map<String, Delivery> found = new HashMap<>();
            try {
                return await("deliveries of run " + runId).atMost(DELIVERY_TIMEOUT).pollInterval(Duration.ofMillis(100)).until(() -> {
                    for (Delivery delivery : deliveries) {
                        if (events.contains(delivery.event()) && !found.containsKey(delivery.event())
                                && runId.equals(delivery.json().path("data").path("runId").asString(null))) {
                            found.put(delivery.event(), delivery);
                        }
                    }
                    return found;
                }, f -> f.keySet().equals(events));
            } catch (ConditionTimeoutException e) {
                return fail("within " + DELIVERY_TIMEOUT + " the receiver got " + found.keySet() + " of " + events + " for run " + runId
                        + " (" + deliveries.size() + " deliveries in all)");
            }
        }

        void stop() {
            server.stop(0);
        }
    }
}
