import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the MCP path adds (issue 21): {@code tools/call service_get_actions} against
 * {@code GET /actions/list} for the same page, both through the gateway with the demo key, one
 * request at a time, interleaved (REST, MCP, REST, MCP ...) so that both see the same machine.
 * Prints p50 and p99 of each and the MCP path's added p50 and p99 (target: at most 5 ms at p50).
 *
 *   java bench/McpVsRestBench.java [samples=200] [warm-up=60] [pageSize=25]
 *
 * Needs ./suite up (.local/credentials.json, or SUITE_STATE_DIR). The demo key's plan (Plus, 300
 * requests a minute) sets the pace: requests go out 5 % below it, so 200 samples take about 90 s.
 * Loopback only; bounded in requests; stops by itself.
 */
public class McpVsRestBench {

    public static void main(String[] args) throws Exception {
        int samples = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int warmUp = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        int pageSize = args.length > 2 ? Integer.parseInt(args[2]) : 25;
        Path state = Path.of(System.getenv().getOrDefault("SUITE_STATE_DIR", ".local"));
        String credentials = Files.readString(state.resolve("credentials.json"));
        String gateway = value(credentials, "gatewayUrl");
        String key = value(credentials, "apiKey");
        String project = value(credentials, "projectId");
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
        // 300 requests a minute for the Plus plan, 5 % below it
        long gapNanos = (long) (60_000_000_000L / 300 / 0.95);
        List<Long> restTimes = new ArrayList<>();
        List<Long> mcpTimes = new ArrayList<>();
        long next = System.nanoTime();
        for (int i = 0; i < warmUp + samples; i++) {
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
                if (answer.statusCode() != 200 || (isMcp && answer.body().contains("\"isError\":true"))) {
                    throw new IllegalStateException((isMcp ? "MCP" : "REST") + " answered " + answer.statusCode() + ": "
                            + answer.body().substring(0, Math.min(300, answer.body().length())));
                }
                if (i >= warmUp) {
                    (isMcp ? mcpTimes : restTimes).add(took);
                }
            }
        }
        Collections.sort(restTimes);
        Collections.sort(mcpTimes);
        System.out.printf("page 1, pageSize %d, %d samples each after %d warm-up pairs, through %s%n", pageSize, samples,
                warmUp, gateway);
        System.out.printf("REST GET /actions/list                  p50 %6.2f ms  p99 %6.2f ms%n", ms(restTimes, 50), ms(restTimes, 99));
        System.out.printf("MCP  tools/call service_get_actions     p50 %6.2f ms  p99 %6.2f ms%n", ms(mcpTimes, 50), ms(mcpTimes, 99));
        System.out.printf("added by the MCP path                   p50 %6.2f ms  p99 %6.2f ms  (target p50 <= 5 ms)%n",
                ms(mcpTimes, 50) - ms(restTimes, 50), ms(mcpTimes, 99) - ms(restTimes, 99));
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
