import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
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
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;


/**
 * E3 benchmark: GET /api/v2/projects/{projectId}/actions/list with 10,000 actions in the demo
 * project. Seeds the project through the write API (POST …/actions) up to the target when it
 * holds fewer, then measures pages at the first, middle and last position for pageSize 25 and
 * 100, summary and context detail, one request at a time, and prints p50/p99 per page.
 * Target (issue 5): p99 under 30 ms on this machine.
 *
 *   java bench/ActionsListBench.java [gateway|bench-gateway|direct] [samples-per-page=200] [actions=10000] [warm-up=600]
 *
 * Before measuring, warm-up requests go round all twelve pages (the JVMs compile the paths they
 * serve in their first minutes; the figures are of the warm services): through the gateway, five
 * times the warm-up count straight to actions-service first, at full speed, then the warm-up
 * count through the gateway. Through the gateway,
 * the demo key's plan (Plus: 300 requests a minute) sets the pace: requests go out 5 % below it.
 *
 * Every mode needs SUITE_JIT=full ./suite up (its services warm, with C2); it refuses a suite with C1 only.
 *
 * gateway (default): through the gateway with the demo API key of .local/credentials.json (SUITE_STATE_DIR).
 * bench-gateway:     through the benchmark's gateway of {@code java bench/GatewayOverhead.java --serve} (the same
 *                    jar and configuration in front of the same services, without the plan's limit), warmed
 *                    with ten times the warm-up count at full speed, then measured one request at a time
 *                    without pacing: at the plan's 5 requests a second the suite's gateway never gets its
 *                    request path compiled (McpVsRestBench.md), so "gateway" measures a half-cold JVM.
 * direct:            straight to actions-service (ACTIONS_URL, default http://127.0.0.1:8083 plus SUITE_PORT_OFFSET) with
 *                    an internal token minted with SUITE_INTERNAL_TOKEN_PRIVATE_KEY of .local/secrets.env,
 *                    to tell the service's share from the gateway's.
 * Requests are timed on a plain keep-alive socket (KeepAliveClient), not the JDK HttpClient, whose
 * thread hand-offs were a third of the measured time of a small page.
 * Loopback only; bounded in requests and time; stops by itself.
 */
public class ActionsListBench {

    static final Duration TIMEOUT = Duration.ofSeconds(10);
    /** The suite's state directory and port offset, as ./suite takes them. */
    static final Path STATE = Path.of(System.getenv().getOrDefault("SUITE_STATE_DIR", ".local"));
    static final int OFFSET = Integer.parseInt(System.getenv().getOrDefault("SUITE_PORT_OFFSET", "0"));
    static final Pattern TOTAL_COUNT = Pattern.compile("\"totalCount\"\\s*:\\s*(\\d+)");

    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "gateway";
        requireFullJit();
        int samples = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        int target = args.length > 2 ? Integer.parseInt(args[2]) : 10_000;
        int warmUp = args.length > 3 ? Integer.parseInt(args[3]) : 600;
        String credentials = Files.readString(STATE.resolve("credentials.json"));
        String projectId = field(credentials, "projectId");
        String base;
        String authorization;
        if (mode.equals("direct")) {
            base = actionsUrl();
            String secret = env(Files.readString(STATE.resolve("secrets.env")), "SUITE_INTERNAL_TOKEN_PRIVATE_KEY");
            authorization = "Bearer " + token(secret, field(credentials, "accountId"), projectId, 3600);
        } else if (mode.equals("bench-gateway")) {
            base = benchGateway();
            authorization = "Bearer " + field(credentials, "apiKey");
        } else {
            base = field(credentials, "gatewayUrl");
            authorization = "Bearer " + field(credentials, "apiKey");
        }
        String list = base + "/api/v2/projects/" + projectId + "/actions/list";
        HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).version(HttpClient.Version.HTTP_1_1).build();

        long total = totalCount(client, list, authorization);
        if (total < target) {
            seed(client, base + "/api/v2/projects/" + projectId + "/actions", authorization, (int) (target - total));
            total = totalCount(client, list, authorization);
        }
        List<String[]> pages = new ArrayList<>();
        for (String detail : List.of("summary", "context")) {
            for (int pageSize : List.of(25, 100)) {
                long last = Math.max(1, (total + pageSize - 1) / pageSize);
                long[] positions = {1, Math.max(1, (last + 1) / 2), last};
                String[] names = {"first", "middle", "last"};
                for (int i = 0; i < positions.length; i++) {
                    pages.add(new String[] {detail, String.valueOf(pageSize), names[i], String.valueOf(positions[i]),
                            list + "?detailLevel=" + detail + "&pageSize=" + pageSize + "&page=" + positions[i]});
                }
            }
        }
        System.out.printf("E3 %s, %s, project %s: %d actions, %d samples per page, one request at a time (load average %s)%n",
                mode, base, projectId, total, samples, loadAverage());
        if (!mode.equals("direct") && warmUp > 0) {
            // the service's JIT first, at full speed and straight to it (the key's plan would take ten
            // minutes for these): its per-row code is most of a large page's time
            String direct = actionsUrl();
            String secret = env(Files.readString(STATE.resolve("secrets.env")), "SUITE_INTERNAL_TOKEN_PRIVATE_KEY");
            String token = "Bearer " + token(secret, field(credentials, "accountId"), projectId, 3600);
            System.out.printf("warming up actions-service: %d requests straight to %s …%n", warmUp * 5, direct);
            for (int i = 0; i < warmUp * 5; i++) {
                String url = pages.get(i % pages.size())[4].replace(base, direct);
                measure(url, token, 1);
            }
        }
        int gatewayWarmUp = mode.equals("bench-gateway") ? warmUp * 10 : warmUp;
        System.out.printf("warming up: %d requests round the %d pages …%n", gatewayWarmUp, pages.size());
        for (int i = 0; i < gatewayWarmUp; i++) {
            measure(pages.get(i % pages.size())[4], authorization, 1);
        }
        System.out.printf("%n%-8s %-8s %-7s %6s %9s %9s %9s%n", "detail", "pageSize", "page", "number", "p50 ms", "p99 ms", "max ms");
        for (String[] page : pages) {
            List<Long> nanos = measure(page[4], authorization, samples);
            Collections.sort(nanos);
            System.out.printf("%-8s %-8s %-7s %6s %9.2f %9.2f %9.2f%n", page[0], page[1], page[2], page[3],
                    pct(nanos, 50), pct(nanos, 99), nanos.get(nanos.size() - 1) / 1e6);
        }
        System.out.printf("%n(load average at the end: %s)%n", loadAverage());
    }

    /**
     * Starts {@code java bench/GatewayOverhead.java --serve} and answers its URL; it stops when this
     * JVM does (its standard input closes).
     */
    /** Every mode measures the suite's services warm: refuse a suite whose services run with C1 only. */
    static void requireFullJit() throws IOException, InterruptedException {
        Process check = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "bench/GatewayOverhead.java", "--require-full-jit").inheritIO().start();
        if (check.waitFor() != 0) {
            System.exit(1);
        }
    }

    static String benchGateway() throws IOException {
        Process gateway = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "bench/GatewayOverhead.java", "--serve").redirectError(ProcessBuilder.Redirect.INHERIT).start();
        Runtime.getRuntime().addShutdownHook(new Thread(gateway::destroy));
        String line = new java.io.BufferedReader(new java.io.InputStreamReader(gateway.getInputStream(), StandardCharsets.UTF_8))
                .readLine();
        if (line == null || !line.startsWith("ready ")) {
            throw new IllegalStateException("the benchmark's gateway did not start (bench/GatewayOverhead.java --serve): " + line);
        }
        return line.split(" ")[1];
    }

    static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return parts[0] + " " + parts[1] + " " + parts[2];
        } catch (Exception e) {
            return "unknown";
        }
    }

    /** Earliest System.nanoTime() at which the next request may go out (pacing to the key's plan). */
    static long nextAllowed;

    /**
     * Times {@code count} requests. Through the gateway, requests are paced to the key's plan as
     * X-RateLimit-Limit tells it (5 % below it), as a well-behaved CI job or BI tool would call: a
     * burst that runs into 429s and then sits out the rest of the minute measures idle JVMs instead.
     * The requests go over one keep-alive socket per host ({@link KeepAliveClient}): the JDK's
     * HttpClient hands every exchange between its threads, which added about 4 ms at p50 and spikes
     * of 30-50 ms of the client's own to the figures (checked against a plain Python client).
     */
    static List<Long> measure(String url, String authorization, int count) throws Exception {
        URI uri = URI.create(url);
        KeepAliveClient client = CLIENTS.computeIfAbsent(uri.getHost() + ":" + uri.getPort(),
                k -> new KeepAliveClient(uri.getHost(), uri.getPort()));
        String target = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        List<Long> nanos = new ArrayList<>(count);
        while (nanos.size() < count) {
            long wait = nextAllowed - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            }
            long start = System.nanoTime();
            KeepAliveClient.Response response = client.get(target, authorization);
            long took = System.nanoTime() - start;
            long limit = response.longHeader("x-ratelimit-limit", 0);
            nextAllowed = limit > 0 ? start + (long) (60e9 / limit * 1.05) : 0;
            if (response.status() == 429) {
                // the key's per-minute window is used up all the same: wait it out, and do not count the refusal
                long retry = response.longHeader("retry-after", 1);
                Thread.sleep(Math.min(65, Math.max(1, retry)) * 1000);
                continue;
            }
            if (response.status() != 200) {
                throw new IllegalStateException(url + " answered " + response.status() + ": "
                        + new String(response.body(), StandardCharsets.UTF_8));
            }
            nanos.add(took);
        }
        return nanos;
    }

    static final Map<String, KeepAliveClient> CLIENTS = new HashMap<>();

    /**
     * A minimal HTTP/1.1 client for GETs on one keep-alive socket, timed by the caller: request out,
     * whole response (Content-Length or chunked) in. It opens a new connection when the server says
     * {@code Connection: close} or closed an idle one (once per request); 10 s timeouts.
     */
    static final class KeepAliveClient {
        record Response(int status, Map<String, String> headers, byte[] body) {
            long longHeader(String name, long otherwise) {
                String value = headers.get(name);
                return value == null ? otherwise : Long.parseLong(value.trim());
            }
        }

        private final String host;
        private final int port;
        private Socket socket;
        private InputStream in;
        private OutputStream out;

        KeepAliveClient(String host, int port) {
            this.host = host;
            this.port = port;
        }

        Response get(String target, String authorization) throws IOException {
            byte[] request = ("GET " + target + " HTTP/1.1\r\nHost: " + host + ":" + port + "\r\nAuthorization: "
                    + authorization + "\r\nAccept: application/json\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
            for (int attempt = 0; ; attempt++) {
                boolean reused = socket != null;
                try {
                    if (socket == null) {
                        socket = new Socket();
                        socket.setTcpNoDelay(true);
                        socket.setSoTimeout((int) TIMEOUT.toMillis());
                        socket.connect(new InetSocketAddress(host, port), (int) TIMEOUT.toMillis());
                        in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
                        out = socket.getOutputStream();
                    }
                    out.write(request);
                    out.flush();
                    Response response = read();
                    if ("close".equalsIgnoreCase(response.headers().get("connection"))) {
                        close();
                    }
                    return response;
                } catch (IOException e) {
                    close();
                    if (!reused || attempt > 0) {
                        throw e;
                    }
                }
            }
        }

        private Response read() throws IOException {
            String status = line();
            if (status == null) {
                throw new EOFException("connection closed before a response");
            }
            int code = Integer.parseInt(status.split(" ")[1]);
            Map<String, String> headers = new HashMap<>();
            for (String header = line(); header != null && !header.isEmpty(); header = line()) {
                int colon = header.indexOf(':');
                headers.put(header.substring(0, colon).trim().toLowerCase(java.util.Locale.ROOT), header.substring(colon + 1).trim());
            }
            byte[] body;
            if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
                java.io.ByteArrayOutputStream chunks = new java.io.ByteArrayOutputStream();
                for (int size = Integer.parseInt(line().split(";")[0].trim(), 16); size > 0;
                        size = Integer.parseInt(line().split(";")[0].trim(), 16)) {
                    chunks.write(in.readNBytes(size));
                    line();
                }
                for (String trailer = line(); trailer != null && !trailer.isEmpty(); trailer = line()) {
                    // trailers are not used
                }
                body = chunks.toByteArray();
            } else {
                body = in.readNBytes((int) Long.parseLong(headers.getOrDefault("content-length", "0")));
            }
            return new Response(code, headers, body);
        }

        private String line() throws IOException {
            StringBuilder line = new StringBuilder();
            for (int b = in.read(); b != -1; b = in.read()) {
                if (b == '\n') {
                    int end = line.length();
                    return end > 0 && line.charAt(end - 1) == '\r' ? line.substring(0, end - 1) : line.toString();
                }
                line.append((char) b);
            }
            return line.length() == 0 ? null : line.toString();
        }

        void close() {
            try {
                if (socket != null) {
                    socket.close();
                }
            } catch (IOException ignored) {
                // closing anyway
            }
            socket = null;
        }
    }

    /** Sends, waiting out a 429 as its Retry-After says (the demo key's plan limits requests per minute). */
    static HttpResponse<byte[]> send(HttpClient client, HttpRequest request) throws Exception {
        for (int attempt = 0; attempt < 20; attempt++) {
            HttpResponse<byte[]> response;
            try {
                response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
            } catch (ConnectException e) {
                throw new IllegalStateException("Nothing answers at " + request.uri().getHost() + ":" + request.uri().getPort()
                        + " — is the suite up (./suite up), or use 'direct' with ACTIONS_URL?", e);
            }
            if (response.statusCode() != 429) {
                return response;
            }
            long wait = response.headers().firstValueAsLong("Retry-After").orElse(1);
            Thread.sleep(Math.min(65, Math.max(1, wait)) * 1000);
        }
        throw new IllegalStateException("still rate limited after 20 attempts: " + request.uri());
    }

    static long totalCount(HttpClient client, String list, String authorization) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(list + "?pageSize=1")).timeout(TIMEOUT)
                .header("Authorization", authorization).GET().build();
        HttpResponse<byte[]> response = send(client, request);
        String body = new String(response.body(), StandardCharsets.UTF_8);
        Matcher m = TOTAL_COUNT.matcher(body);
        if (response.statusCode() != 200 || !m.find()) {
            throw new IllegalStateException("E3 answered " + response.statusCode() + ": " + body);
        }
        return Long.parseLong(m.group(1));
    }

    /** Creates {@code missing} actions through POST …/actions, 8 at a time, with varied channels and priorities. */
    static void seed(HttpClient client, String url, String authorization, int missing) throws Exception {
        System.out.printf("seeding %d actions through %s …%n", missing, url);
        String[] priorities = {"high", "medium", "low"};
        String[] channels = {"content", "technical", "pr", "social", "docs"};
        AtomicInteger done = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < missing; i++) {
                int n = i;
                futures.add(pool.submit(() -> {
                    String body = "{\"title\":\"Bench action " + n + "\",\"description\":\"Seeded by bench/ActionsListBench.java\","
                            + "\"channels\":[\"" + channels[n % channels.length] + "\"],\"priority\":\"" + priorities[n % 3] + "\"}";
                    HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(TIMEOUT)
                            .header("Authorization", authorization).header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(body)).build();
                    HttpResponse<byte[]> response = send(client, request);
                    if (response.statusCode() != 201) {
                        throw new IllegalStateException("POST answered " + response.statusCode() + ": "
                                + new String(response.body(), StandardCharsets.UTF_8));
                    }
                    int created = done.incrementAndGet();
                    if (created % 1000 == 0) {
                        System.out.printf("  %d created%n", created);
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    static double pct(List<Long> sorted, int p) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1)) / 1e6;
    }

    /** actions-service's URL: ACTIONS_URL if set and not empty, else the suite's port 8083 plus its offset. */
    static String actionsUrl() {
        String url = System.getenv("ACTIONS_URL");
        return url == null || url.isBlank() ? "http://127.0.0.1:" + (8083 + OFFSET) : url;
    }

    /** The internal token the gateway would mint for the demo key (RS256, DESIGN.md request path 5). */
    static String token(String secret, String accountId, String projectId, long ttlSeconds) throws Exception {
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        long now = System.currentTimeMillis() / 1000;
        String header = b64.encodeToString("{\"alg\":\"RS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        String claims = b64.encodeToString(("{\"iss\":\"suite-gateway\",\"aud\":\"suite-services\",\"sub\":\"bench\",\"jti\":\""
                + UUID.randomUUID() + "\",\"iat\":" + now + ",\"exp\":" + (now + ttlSeconds) + ",\"acct\":\"" + accountId
                + "\",\"proj\":\"" + projectId + "\",\"key\":\"bench\",\"scp\":[\"actions.read\",\"actions.write\"],\"feat\":[]}")
                .getBytes(StandardCharsets.UTF_8));
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
