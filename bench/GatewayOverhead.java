import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;


/**
 * Gateway overhead: drives GET /api/v2/projects/{projectId}/usage through the gateway (API key)
 * and directly against auth-service (internal token), on loopback, in one run, and prints
 * requests/s, p50 and p99 for both and their ratio. Needs the local suite: ./suite up.
 *
 * The suite's gateway limits the demo key to the Plus plan's few hundred requests a minute, so
 * the benchmark starts a gateway of its own (gateway/target/gateway.jar, port 18080) with the
 * same configuration but a limit no benchmark reaches; rate limiting still runs on every request.
 *
 *   java bench/GatewayOverhead.java [seconds-per-phase=20] [concurrency=16] [warm-up seconds=30]
 */
public class GatewayOverhead {

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int concurrency = args.length > 1 ? Integer.parseInt(args[1]) : 16;
        // the benchmark's gateway starts cold: give the JIT time before measuring
        int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 30;
        String credentials = Files.readString(Path.of(".local/credentials.json"));
        String gateway = field(credentials, "gatewayUrl");
        String projectId = field(credentials, "projectId");
        String apiKey = field(credentials, "apiKey");
        String secret = env(Files.readString(Path.of(".local/secrets.env")), "SUITE_INTERNAL_TOKEN_PRIVATE_KEY");
        String path = "/api/v2/projects/" + projectId + "/usage";
        String direct = System.getProperty("direct", "http://127.0.0.1:8081");
        Process ownGateway = startGateway(secret);
        Runtime.getRuntime().addShutdownHook(new Thread(ownGateway::destroy));
        gateway = "http://127.0.0.1:18080";

        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        System.out.printf("endpoint GET %s, %d s per phase, %d concurrent clients%n", path, seconds, concurrency);
        run(client, gateway + path, "Bearer " + apiKey, warmup, concurrency, null);
        run(client, direct + path, "Bearer " + token(secret, projectId, 600), warmup / 2, concurrency, null);
        Result viaGateway = run(client, gateway + path, "Bearer " + apiKey, seconds, concurrency, "gateway");
        Result directly = run(client, direct + path, "Bearer " + token(secret, projectId, 600), seconds, concurrency, "direct");
        System.out.printf("ratio: gateway keeps %.1f%% of direct throughput; p50 +%.2f ms, p99 +%.2f ms%n",
                100.0 * viaGateway.rps / directly.rps, viaGateway.p50 - directly.p50, viaGateway.p99 - directly.p99);
    }

    static Process startGateway(String secret) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms64m", "-Xmx256m", "-XX:+UseSerialGC", "-jar", "gateway/target/gateway.jar",
                "--server.port=18080", "--server.address=127.0.0.1", "--suite.rate-limit.plans.plus=1000000000")
                .redirectErrorStream(true)
                .redirectOutput(Path.of(".local/logs/bench-gateway.log").toFile());
        builder.environment().put("SPRING_KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:9092");
        builder.environment().put("SUITE_INTERNAL_TOKEN_PRIVATE_KEY", secret);
        builder.environment().put("SUITE_INTERNAL_TOKEN_PUBLIC_KEY",
                env(Files.readString(Path.of(".local/secrets.env")), "SUITE_INTERNAL_TOKEN_PUBLIC_KEY"));
        Process process = builder.start();
        HttpClient probe = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the benchmark's gateway exited; see .local/logs/bench-gateway.log");
            }
            try {
                if (probe.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:18080/actuator/health/readiness")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return process;
                }
            } catch (java.io.IOException notYet) {
                // still starting
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException("the benchmark's gateway did not start; see .local/logs/bench-gateway.log");
    }

    record Result(double rps, double p50, double p99) {
    }

    static Result run(HttpClient client, String url, String authorization, int seconds, int concurrency, String label)
            throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).header("Authorization", authorization)
                .timeout(Duration.ofSeconds(10)).build();
        long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        AtomicLong errors = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(concurrency);
        List<Future<List<Long>>> workers = new ArrayList<>();
        long started = System.nanoTime();
        for (int i = 0; i < concurrency; i++) {
            workers.add(pool.submit(() -> {
                List<Long> latencies = new ArrayList<>();
                while (System.nanoTime() < end) {
                    long t0 = System.nanoTime();
                    HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
                    latencies.add(System.nanoTime() - t0);
                    if (response.statusCode() != 200) {
                        errors.incrementAndGet();
                    }
                }
                return latencies;
            }));
        }
        List<Long> all = new ArrayList<>();
        for (Future<List<Long>> worker : workers) {
            all.addAll(worker.get());
        }
        double elapsed = (System.nanoTime() - started) / 1e9;
        pool.shutdown();
        Collections.sort(all);
        Result result = new Result(all.size() / elapsed, pct(all, 50), pct(all, 99));
        if (label != null) {
            System.out.printf("%-8s %8.0f req/s   p50 %6.2f ms   p99 %6.2f ms   (%d requests, %d non-200)%n",
                    label, result.rps, result.p50, result.p99, all.size(), errors.get());
        }
        return result;
    }

    static double pct(List<Long> sorted, int p) {
        return sorted.isEmpty() ? 0 : sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1)) / 1e6;
    }

    /** The internal token the gateway would mint for the demo key (RS256, DESIGN.md request path 5). */
    static String token(String secret, String projectId, long ttlSeconds) throws Exception {
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        long now = System.currentTimeMillis() / 1000;
        String header = b64.encodeToString("{\"alg\":\"RS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        String claims = b64.encodeToString(("{\"iss\":\"suite-gateway\",\"aud\":\"suite-services\",\"sub\":\"bench\",\"jti\":\""
                + UUID.randomUUID() + "\",\"iat\":" + now + ",\"exp\":" + (now + ttlSeconds) + ",\"proj\":\"" + projectId
                + "\",\"key\":\"bench\",\"scp\":[],\"feat\":[]}").getBytes(StandardCharsets.UTF_8));
        // RS256 with the gateway's private key (base64 of PKCS#8, as ./suite keeps it in .local/secrets.env)
        java.security.Signature rsa = java.security.Signature.getInstance("SHA256withRSA");
        rsa.initSign(java.security.KeyFactory.getInstance("RSA").generatePrivate(
                new java.security.spec.PKCS8EncodedKeySpec(Base64.getMimeDecoder().decode(secret))));
        rsa.update((header + "." + claims).getBytes(StandardCharsets.UTF_8));
        String signature = b64.encodeToString(rsa.sign());
        return header + "." + claims + "." + signature;
    }

    static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*\"([^\"]*)\"").matcher(json);
        if (!m.find()) {
            throw new IllegalStateException(name + " missing from .local/credentials.json: run ./suite up first");
        }
        return m.group(1);
    }

    static String env(String text, String name) {
        for (String line : text.split("\n")) {
            String l = line.trim();
            if (l.startsWith("export ")) {
                l = l.substring(7);
            }
            if (l.startsWith(name + "=")) {
                return l.substring(name.length() + 1).replaceAll("^['\"]|['\"]$", "");
            }
        }
        throw new IllegalStateException(name + " missing from .local/secrets.env");
    }
}
