import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the MCP path adds (issue 21): {@code tools/call service_get_actions} against
 * {@code GET /actions/list} for the same page, both through a gateway with the demo key, one
 * request at a time, interleaved (REST, MCP, REST, MCP ...) so that both see the same machine.
 * Prints p50 and p99 of each, the MCP path's added p50 and p99 (target: at most 5 ms at p50), and
 * the CPU that mcp-service spent per tools/call (from /proc).
 *
 *   java bench/McpVsRestBench.java [samples=500] [warm-up pairs=6000] [pageSize=25]
 *
 * Needs SUITE_JIT=full ./suite up (.local/credentials.json, or SUITE_STATE_DIR, and SUITE_PORT_OFFSET).
 *
 * A service that has answered a few dozen requests still runs much of its request path in the
 * interpreter; what a caller of a running service sees is the path once the JIT has compiled it.
 * The suite's gateway holds the demo key to the Plus plan's 300 requests a minute, too few for
 * that, so by default the benchmark runs through the gateway of bench/GatewayOverhead.java
 * ({@code --serve}: the same gateway jar and configuration in front of the same services, with a
 * limit no benchmark reaches; rate limiting still runs on every request), warms both paths with
 * {@code warm-up pairs} sent by 4 clients at once, then measures one request at a time.
 * {@code -Dsuite.gateway=true} measures through the suite's own gateway instead, paced 5 % below
 * the plan's limit (the warm-up pairs paced too: keep them few).
 * Loopback only; bounded in requests; stops by itself (and stops the gateway it started).
 */
public class McpVsRestBench {

    static final Path STATE = Path.of(System.getenv().getOrDefault("SUITE_STATE_DIR", ".local"));

    public static void main(String[] args) throws Exception {
        boolean suiteGateway = Boolean.getBoolean("suite.gateway");
        int samples = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        int warmUp = args.length > 1 ? Integer.parseInt(args[1]) : (suiteGateway ? 60 : 6000);
        int pageSize = args.length > 2 ? Integer.parseInt(args[2]) : 25;
        String credentials = Files.readString(STATE.resolve("credentials.json"));
        String key = value(credentials, "apiKey");
        String project = value(credentials, "projectId");
        long mcpPid = Long.parseLong(Files.readString(STATE.resolve("pids/mcp-service.pid")).trim());
        Process benchGateway = null;
        String gateway = value(credentials, "gatewayUrl");
        if (!suiteGateway) {
            benchGateway = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "bench/GatewayOverhead.java", "--serve").redirectError(ProcessBuilder.Redirect.INHERIT).start();
            Process started = benchGateway;
            Runtime.getRuntime().addShutdownHook(new Thread(started::destroy));
            BufferedReader out = new BufferedReader(new InputStreamReader(benchGateway.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            if (line == null || !line.startsWith("ready ")) {
                throw new IllegalStateException("the benchmark's gateway did not start (bench/GatewayOverhead.java --serve): "
                        + line);
            }
            gateway = line.split(" ")[1];
        }
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest rest = HttpRequest.newBuilder(URI.create(gateway + "/api/v2/projects/" + project
                        + "/actions/list?page=1&pageSize=" + pageSize))
                .header("Authorization", "Bearer " + key).timeout(Duration.ofSeconds(10)).GET().build();
        String call = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"service_get_actions\","
                + "\"arguments\":{\"page\":1,\"pageSize\":" + pageSize + "}}}";
        HttpRequest mcp = HttpRequest.newBuilder(URI.create(gateway + "/api/mcp"))
                .header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2025-11-25")
                .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofString(call)).build();
        System.out.printf("page 1, pageSize %d, through %s, load average %s%n", pageSize, gateway, loadAverage());
        try {
            if (suiteGateway) {
                measure(http, rest, mcp, warmUp, 0, true, mcpPid);
            } else {
                long started = System.nanoTime();
                warm(http, rest, mcp, warmUp, 4);
                System.out.printf("warmed up with %d pairs (4 clients) in %.0f s%n", warmUp, (System.nanoTime() - started) / 1e9);
            }
            measure(http, rest, mcp, samples, samples, suiteGateway, mcpPid);
            System.out.printf("load average after the run: %s%n", loadAverage());
        } finally {
            if (benchGateway != null) {
                benchGateway.getOutputStream().close();
                benchGateway.waitFor(40, TimeUnit.SECONDS);
                benchGateway.destroy();
            }
        }
    }

    /** {@code pairs} REST + MCP pairs from {@code clients} clients at once, as fast as they are answered. */
    static void warm(HttpClient http, HttpRequest rest, HttpRequest mcp, int pairs, int clients) throws Exception {
        AtomicInteger left = new AtomicInteger(pairs);
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<java.util.concurrent.Future<?>> running = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            running.add(pool.submit(() -> {
                while (left.decrementAndGet() >= 0) {
                    check(rest, http.send(rest, HttpResponse.BodyHandlers.ofString()));
                    check(mcp, http.send(mcp, HttpResponse.BodyHandlers.ofString()));
                }
                return null;
            }));
        }
        for (java.util.concurrent.Future<?> client : running) {
            client.get(30, TimeUnit.MINUTES);
        }
        pool.shutdown();
    }

    /**
     * {@code pairs} pairs one request at a time, REST and MCP alternating which goes first;
     * {@code recorded}: how many of them (the last ones) count; {@code paced}: 5 % below 300 a minute.
     */
    static void measure(HttpClient http, HttpRequest rest, HttpRequest mcp, int pairs, int recorded, boolean paced,
            long mcpPid) throws Exception {
        long gapNanos = paced ? (long) (60_000_000_000L / 300 / 0.95) : 0;
        List<Long> restTimes = new ArrayList<>();
        List<Long> mcpTimes = new ArrayList<>();
        long next = System.nanoTime();
        long cpuBefore = cpuMillis(mcpPid);
        for (int i = 0; i < pairs; i++) {
            for (int which = 0; which < 2; which++) {
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                }
                next = System.nanoTime() + gapNanos;
                boolean isMcp = (i + which) % 2 == 1;
                long start = System.nanoTime();
                HttpResponse<String> answer = http.send(isMcp ? mcp : rest, HttpResponse.BodyHandlers.ofString());
                long took = System.nanoTime() - start;
                check(isMcp ? mcp : rest, answer);
                if (i >= pairs - recorded) {
                    (isMcp ? mcpTimes : restTimes).add(took);
                }
            }
        }
        if (recorded == 0) {
            return;
        }
        double mcpCpu = (double) (cpuMillis(mcpPid) - cpuBefore) / pairs;
        Collections.sort(restTimes);
        Collections.sort(mcpTimes);
        System.out.printf("%d samples each, one request at a time%n", recorded);
        System.out.printf("REST GET /actions/list                  p50 %6.2f ms  p99 %6.2f ms%n", ms(restTimes, 50), ms(restTimes, 99));
        System.out.printf("MCP  tools/call service_get_actions     p50 %6.2f ms  p99 %6.2f ms%n", ms(mcpTimes, 50), ms(mcpTimes, 99));
        System.out.printf("added by the MCP path                   p50 %6.2f ms  p99 %6.2f ms  (target p50 <= 5 ms)%n",
                ms(mcpTimes, 50) - ms(restTimes, 50), ms(mcpTimes, 99) - ms(restTimes, 99));
        System.out.printf("mcp-service CPU per tools/call          %6.2f ms%n", mcpCpu);
    }

    static void check(HttpRequest request, HttpResponse<String> answer) {
        boolean isMcp = request.uri().getPath().endsWith("/mcp");
        if (answer.statusCode() != 200 || (isMcp && answer.body().contains("\"isError\":true"))) {
            throw new IllegalStateException((isMcp ? "MCP" : "REST") + " answered " + answer.statusCode() + ": "
                    + answer.body().substring(0, Math.min(300, answer.body().length())));
        }
    }

    /** utime + stime of a process in milliseconds (Linux, 100 clock ticks a second). */
    static long cpuMillis(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10;
    }

    static String loadAverage() throws Exception {
        return Files.readString(Path.of("/proc/loadavg")).trim();
    }

    static double ms(List<Long> sorted, int percentile) {
        int index = (int) Math.ceil(percentile / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index))) / 1_000_000.0;
    }

    static String value(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*\"([^\"]*)\"").matcher(json);
        if (!m.find()) {
            throw new IllegalStateException("credentials.json has no " + name + ": run ./suite up");
        }
        return m.group(1);
    }
}
