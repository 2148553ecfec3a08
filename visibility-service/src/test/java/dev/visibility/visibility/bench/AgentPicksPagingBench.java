package dev.visibility.visibility.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.visibility.platform.security.Caller;
import dev.visibility.platform.security.InternalTokenMinter;
import dev.visibility.platform.security.InternalTokenProperties;
import dev.visibility.platform.testing.SharedInfrastructure;
import dev.visibility.platform.testing.TestTokens;
import dev.visibility.visibility.VisibilityServiceApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * E1 keyset paging benchmark: page 1 against page 500 of the evidence of one run with 100,000
 * items at {@code limit=100} (page 500 = items 49,901 to 50,000). Prints p50 and p99 of both and
 * their ratio; the target is within 1.5× (DESIGN.md, Cursors: page N costs the same as page 1).
 *
 * <p>The items are inserted directly with SQL (the benchmark may; the service never does).
 * <ul>
 * <li>{@code standalone} (default): starts a real PostgreSQL and Kafka broker and the service
 * in this JVM, and measures directly against the service with a minted internal token.</li>
 * <li>{@code suite}: uses the running local suite ({@code ./suite up}): inserts into its
 * database, walks to page 500 directly against visibility-service, and measures through the
 * gateway with the demo API key ({@code .local/credentials.json}). The demo key's plan limits
 * requests per minute; the benchmark waits out a 429 and does not count it.</li>
 * </ul>
 * Run with {@code bench/AgentPicksPagingBench.sh [standalone|suite] [samples-per-page=300]}.
 */
public final class AgentPicksPagingBench {

    static final int ITEMS = 100_000;
    static final int LIMIT = 100;
    static final int PAGE = 500;
    static final JsonMapper JSON = JsonMapper.builder().build();

    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "standalone";
        int samples = args.length > 1 ? Integer.parseInt(args[1]) : 300;
        UUID testId = UUID.randomUUID();
        UUID runId = UUID.randomUUID();
        if (mode.equals("suite")) {
            suite(testId, runId, samples);
        } else {
            standalone(testId, runId, samples);
        }
        System.exit(0);
    }

    private static void standalone(UUID testId, UUID runId, int samples) throws Exception {
        Map<String, Object> properties = new HashMap<>(SharedInfrastructure.springProperties());
        properties.put("server.port", "0");
        properties.put("logging.level.root", "WARN");
        // as command-line arguments: they must win over the platform defaults and application.yml
        String[] arguments = properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue())
                .toArray(String[]::new);
        ConfigurableApplicationContext context = new SpringApplicationBuilder(VisibilityServiceApplication.class)
                .run(arguments);
        String base = "http://127.0.0.1:" + context.getEnvironment().getProperty("local.server.port");
        UUID projectId = UUID.randomUUID();
        String account = "bench-account";
        try (Connection db = DriverManager.getConnection(SharedInfrastructure.jdbcUrl(), SharedInfrastructure.USER,
                SharedInfrastructure.PASSWORD)) {
            insert(db, projectId, account, testId, runId);
        }
        String token = "Bearer " + TestTokens.mint(new Caller(account, projectId.toString(), "bench", null, null,
                Set.of("visibility.read"), Set.of("agent-picks")));
        String path = "/api/v2/projects/" + projectId + "/agent-picks/tests/" + testId + "/runs/" + runId;
        System.out.printf("standalone: visibility-service at %s (embedded PostgreSQL and Kafka), internal token%n", base);
        measure(base + path, token, base + path, token, samples);
        context.close();
    }

    private static void suite(UUID testId, UUID runId, int samples) throws Exception {
        String credentials = Files.readString(Path.of(".local/credentials.json"));
        String secrets = Files.readString(Path.of(".local/secrets.env"));
        String gateway = field(credentials, "gatewayUrl");
        UUID projectId = UUID.fromString(field(credentials, "projectId"));
        String account = field(credentials, "accountId");
        String apiKey = field(credentials, "apiKey");
        String direct = System.getProperty("direct", "http://127.0.0.1:8082");
        String jdbc = System.getProperty("jdbc", "jdbc:postgresql://127.0.0.1:5433/suite");
        try (Connection db = DriverManager.getConnection(jdbc, "suite", env(secrets, "SUITE_DB_PASSWORD"))) {
            insert(db, projectId, account, testId, runId);
        }
        InternalTokenMinter minter = new InternalTokenMinter(new InternalTokenProperties(true,
                env(secrets, "SUITE_INTERNAL_TOKEN_PRIVATE_KEY"), env(secrets, "SUITE_INTERNAL_TOKEN_PUBLIC_KEY"), null, null,
                Duration.ofHours(1)));
        String internal = "Bearer " + minter.mint(new Caller(account, projectId.toString(), "bench", null, null,
                Set.of("visibility.read"), Set.of("agent-picks")));
        String path = "/api/v2/projects/" + projectId + "/agent-picks/tests/" + testId + "/runs/" + runId;
        System.out.printf("suite: through the gateway %s with the demo API key (page 500 found directly at %s)%n",
                gateway, direct);
        measure(gateway + path, "Bearer " + apiKey, direct + path, internal, samples);
    }

    /** One test, one completed run and 100,000 evidence items (seq 1..100000), straight into the service's tables. */
    static void insert(Connection db, UUID projectId, String account, UUID testId, UUID runId) throws Exception {
        long started = System.nanoTime();
        try (PreparedStatement test = db.prepareStatement("""
                INSERT INTO visibility.agentpicks_tests (test_id, project_id, account_id, kind, status, status_at)
                VALUES (?, ?, ?, 'bench', 'completed', now())""");
                PreparedStatement run = db.prepareStatement("""
                INSERT INTO visibility.agentpicks_runs (run_id, test_id, project_id, account_id, revision, agent, model,
                    repetition, status, created_at, early_stopped, has_error, trail_complete)
                VALUES (?, ?, ?, ?, 1, 'bench-agent', 'bench-model', 0, 'completed', now(), false, false, true)""");
                PreparedStatement evidence = db.prepareStatement("""
                INSERT INTO visibility.agentpicks_evidence (run_id, seq, id, kind, url, status_code, recorded_at,
                    observed_at, queries, path, packages, source, method, exit_code, failed, command, text, error_text)
                SELECT ?, g, md5(?::text || g)::uuid, (ARRAY['search','fetch','read','command','install','write'])[1 + g % 6],
                       'https://docs.example.com/page/' || g || '?q=secret', 200, now() + g * interval '1 millisecond',
                       g * 10.0,
                       (CASE WHEN g % 6 = 0 THEN '["query ' || g || '"]' ELSE '[]' END)::jsonb,
                       CASE WHEN g % 6 = 2 THEN '/workspace/src/file-' || g || '.ts' END,
                       (CASE WHEN g % 6 = 4 THEN '["stripe@17.0.0", "internal-sdk"]' ELSE '[]' END)::jsonb,
                       'web', 'GET', CASE WHEN g % 6 = 3 THEN 0 END, CASE WHEN g % 6 = 3 THEN false END,
                       CASE WHEN g % 6 = 3 THEN 'npm test' END, NULL, NULL
                FROM generate_series(1, ?) AS g""")) {
            test.setObject(1, testId);
            test.setObject(2, projectId);
            test.setString(3, account);
            test.executeUpdate();
            run.setObject(1, runId);
            run.setObject(2, testId);
            run.setObject(3, projectId);
            run.setString(4, account);
            run.executeUpdate();
            evidence.setObject(1, runId);
            evidence.setString(2, runId.toString());
            evidence.setInt(3, ITEMS);
            evidence.executeUpdate();
        }
        try (Statement analyze = db.createStatement()) {
            analyze.execute("ANALYZE visibility.agentpicks_evidence");
        }
        System.out.printf("inserted run %s with %,d evidence items in %.1f s%n", runId, ITEMS,
                (System.nanoTime() - started) / 1e9);
    }

    static void measure(String url, String authorization, String walkUrl, String walkAuthorization, int samples)
            throws Exception {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        // walk to page 500 once (this also proves every page continues where the previous one stopped)
        String cursor = null;
        long expectedSeq = 1;
        long walkStarted = System.nanoTime();
        for (int page = 1; page < PAGE; page++) {
            JsonNode evidence = JSON.readTree(get(client, walkUrl + "?limit=" + LIMIT + (cursor == null ? "" : "&cursor=" + cursor),
                    walkAuthorization).body()).path("data").path("evidence");
            if (evidence.path("items").get(0).path("seq").asLong() != expectedSeq) {
                throw new IllegalStateException("page " + page + " does not start at seq " + expectedSeq);
            }
            expectedSeq += LIMIT;
            cursor = evidence.path("pagination").path("next_cursor").asString();
        }
        System.out.printf("walked pages 1-%d in %.1f s; page %d starts at seq %,d%n", PAGE - 1,
                (System.nanoTime() - walkStarted) / 1e9, PAGE, expectedSeq);
        String first = url + "?limit=" + LIMIT;
        String deep = url + "?limit=" + LIMIT + "&cursor=" + cursor;
        JsonNode check = JSON.readTree(get(client, deep, authorization).body()).path("data").path("evidence").path("items");
        System.out.printf("page %d: items seq %,d to %,d%n", PAGE, check.get(0).path("seq").asLong(),
                check.get(check.size() - 1).path("seq").asLong());

        int warmup = Math.max(20, samples / 5);
        for (int i = 0; i < warmup; i++) {
            get(client, first, authorization);
            get(client, deep, authorization);
        }
        List<Long> page1 = new ArrayList<>();
        List<Long> page500 = new ArrayList<>();
        // interleaved, so that load from elsewhere on the machine hits both alike
        for (int i = 0; i < samples; i++) {
            page1.add(timed(client, first, authorization));
            page500.add(timed(client, deep, authorization));
        }
        double p50First = percentile(page1, 50);
        double p99First = percentile(page1, 99);
        double p50Deep = percentile(page500, 50);
        double p99Deep = percentile(page500, 99);
        System.out.printf("%d samples each, limit=%d, %,d items%n", samples, LIMIT, ITEMS);
        System.out.printf("page   1: p50 %7.2f ms   p99 %7.2f ms%n", p50First, p99First);
        System.out.printf("page %d: p50 %7.2f ms   p99 %7.2f ms%n", PAGE, p50Deep, p99Deep);
        System.out.printf("ratio page %d / page 1: p50 %.2fx, p99 %.2fx (target: within 1.5x) -> %s%n", PAGE,
                p50Deep / p50First, p99Deep / p99First, p50Deep / p50First <= 1.5 ? "PASS" : "FAIL");
    }

    private static long timed(HttpClient client, String url, String authorization) throws Exception {
        long started = System.nanoTime();
        HttpResponse<String> response = get(client, url, authorization);
        long elapsed = System.nanoTime() - started;
        if (response.statusCode() != 200) {
            throw new IllegalStateException("HTTP " + response.statusCode() + ": " + response.body());
        }
        return elapsed;
    }

    private static HttpResponse<String> get(HttpClient client, String url, String authorization) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).header("Authorization", authorization)
                .timeout(Duration.ofSeconds(30)).build();
        while (true) {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 429) {
                return response;
            }
            long wait = response.headers().firstValueAsLong("Retry-After").orElse(1);
            Thread.sleep(Math.max(1, wait) * 1000);
        }
    }

    static double percentile(List<Long> nanos, double p) {
        List<Long> sorted = new ArrayList<>(nanos);
        Collections.sort(sorted);
        int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index))) / 1e6;
    }

    static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(name) + "\"\\s*:\\s*\"([^\"]*)\"").matcher(json);
        if (!m.find()) {
            throw new IllegalStateException(name + " is missing from .local/credentials.json");
        }
        return m.group(1);
    }

    static String env(String file, String name) {
        for (String line : file.split("\n")) {
            if (line.startsWith(name + "=")) {
                return line.substring(name.length() + 1).replaceAll("^['\"]|['\"]$", "").trim();
            }
        }
        throw new IllegalStateException(name + " is missing from .local/secrets.env");
    }

    private AgentPicksPagingBench() {
    }
}
