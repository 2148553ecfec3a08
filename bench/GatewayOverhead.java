import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;


/**
 * Gateway overhead (issue 24): drives GET /api/v2/projects/{projectId}/usage through the gateway
 * (API key) and directly against auth-service (internal token), on loopback, in one run, and
 * prints for both requests/s, p50 and p99, and the CPU milliseconds per request that the gateway
 * process and the backend process (auth-service) spent, read from /proc/<pid>/stat (utime + stime)
 * before and after each phase. Needs the local suite started with the full JIT: SUITE_JIT=full ./suite up.
 *
 * Phases: warm-up; maximum throughput (closed loop, {@code concurrency} clients without pause)
 * through the gateway and directly; then half of the gateway's maximum throughput (paced, the same
 * rate both ways), where the added p50 is read.
 *
 * The suite's gateway limits the demo key to the Plus plan's few hundred requests a minute, so
 * the benchmark starts a gateway of its own (gateway/target/gateway.jar, port 18080 plus
 * SUITE_PORT_OFFSET, management port 18580 plus the offset) with the same configuration but a
 * limit no benchmark reaches; rate limiting still runs on every request.
 *
 *   java bench/GatewayOverhead.java [seconds-per-phase=20] [concurrency=16] [warm-up seconds=30]
 *   java bench/GatewayOverhead.java --serve   (only start that gateway; see serve())
 *
 * Environment: SUITE_STATE_DIR (.local) and SUITE_PORT_OFFSET (0), as for ./suite.
 * -Dgateway.jvm="..." adds JVM options to the benchmark's gateway (e.g. a JFR recording),
 * -Dgateway.args="..." adds application arguments (e.g. --management.tracing.sampling.probability=1.0),
 * -DgatewayOnly=true measures only the gateway at maximum throughput (to compare configurations),
 * -Dgateway.jar=<path> runs another build of the gateway (e.g. the one before a change, in the same session),
 * -Dgateway.against=<path> runs that build beside the first, both loaded at once, and compares their CPU a request
 * (sideBySide: the way to tell a change of a few percent on this machine, whose speed drifts within minutes),
 * -Dgateway.against.args="..." adds application arguments to that second gateway only (a setting side by side),
 * -Dgateway.against.jvm="..." JVM options to it only (a system property side by side), and -Dgateway.a.args="..."
 * application arguments to the first one (A) only, so that a setting can be compared in both positions,
 * -Dgateway.java=<JDK home> runs the gateway (A, and B unless told otherwise) on another JDK than the benchmark's,
 * -Dgateway.against.java=<JDK home> runs B on it (e.g. /usr/lib/jvm/temurin-25-jdk-amd64 against JDK 17),
 * -Dwarmup.requests=<n> (20000): the gateway's warm-up lasts until it has answered that many requests too
 * (at most five times the warm-up seconds), so that the JIT has compiled the request path before measuring
 * even on a busy machine, -Dwarmup.jit=<share> (0.03): and until the gateway's JIT compiler threads took at most
 * that share of its CPU in a 10 s round (same limit). Every phase prints the JIT compilers' CPU a request beside
 * each process's: compilation still going on in a phase is start-up cost, not a request's.
 * -Dlayout=pinned (default shared) gives the backend and its database (auth-service answers the usage from
 * PostgreSQL: the suite's PostgreSQL, every process of it) a core of their own and puts the gateway and this client
 * on the other (taskset, every thread of each process, for the whole run; the suite's processes get every core back
 * at exit): the layout the throughput ratio means in production, where the service behind the gateway has its own
 * capacity and the gateway's CPU does not come out of it. In the shared layout the three processes share both cores,
 * so the ratio is bound by their summed CPU a request (bench/GatewayOverhead.md, "Against the targets"); both are
 * printed as measured.
 * -Dgateway.bare=true measures bench/BareProxy.java in the gateway's place (a reverse proxy on the gateway's Reactor
 * Netty and nothing else; it swaps the caller's key for an internal token minted here): the floor under any gateway
 * on this stack, in the same phases and layouts (bench/GatewayOverhead.md, session 51).
 */
public class GatewayOverhead {

    static final Path STATE = Path.of(System.getenv().getOrDefault("SUITE_STATE_DIR", ".local"));
    static final int OFFSET = Integer.parseInt(System.getenv().getOrDefault("SUITE_PORT_OFFSET", "0"));
    static final int GATEWAY_PORT = 18080 + OFFSET;
    static final int GATEWAY_MANAGEMENT_PORT = 18580 + OFFSET;
    static final long CLOCK_TICKS = clockTicks();

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("--serve")) {
            serve();
            return;
        }
        if (args.length > 0 && args[0].equals("--require-full-jit")) {
            // for the other benchmarks of the suite's warm services (ActionsListBench): exit 1 with the reason
            try {
                requireFullJit();
            } catch (IllegalStateException e) {
                System.err.println(e.getMessage());
                System.exit(1);
            }
            return;
        }
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int concurrency = args.length > 1 ? Integer.parseInt(args[1]) : 16;
        // the benchmark's gateway starts cold: give the JIT time before measuring
        int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 30;
        String credentials = Files.readString(STATE.resolve("credentials.json"));
        String projectId = field(credentials, "projectId");
        String apiKey = field(credentials, "apiKey");
        String secrets = Files.readString(STATE.resolve("secrets.env"));
        String secret = env(secrets, "SUITE_INTERNAL_TOKEN_PRIVATE_KEY");
        String path = "/api/v2/projects/" + projectId + "/usage";
        String direct = System.getProperty("direct", "http://127.0.0.1:" + (8081 + OFFSET));
        long backendPid = Long.parseLong(Files.readString(STATE.resolve("pids/auth-service.pid")).trim());
        Process ownGateway = Boolean.getBoolean("gateway.bare")
                ? startBareProxy(secrets, direct, "Bearer " + token(secret, projectId, 3600))
                : startGateway(secrets);
        Runtime.getRuntime().addShutdownHook(new Thread(ownGateway::destroy));
        String against = System.getProperty("gateway.against");
        if (against != null) {
            sideBySide(secrets, against, ownGateway, backendPid, "Bearer " + field(credentials, "apiKey"), path, seconds,
                    concurrency, warmup);
            return;
        }
        String gateway = "http://127.0.0.1:" + GATEWAY_PORT;
        Processes processes = new Processes(ownGateway.pid(), backendPid);
        String layout = System.getProperty("layout", "shared");
        if (layout.equals("pinned")) {
            pinLayout(ownGateway.pid(), backendPid);
        } else if (!layout.equals("shared")) {
            throw new IllegalArgumentException("-Dlayout is shared or pinned, not " + layout);
        }
        System.out.println("layout: " + layout);

        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        System.out.printf("endpoint GET %s, %d s per phase, %d concurrent clients, load average %s%n", path, seconds,
                concurrency, loadAverage());
        String directAuthorization = "Bearer " + token(secret, projectId, 600);
        long warmedUp = 0;
        long warmupStart = System.nanoTime();
        long warmupEnd = warmupStart + Duration.ofSeconds(5L * warmup).toNanos();
        Result round = run(client, gateway + path, "Bearer " + apiKey, warmup, concurrency, 0, null, processes);
        warmedUp += round.requests;
        // then 10 s rounds until enough requests were answered and the JIT compilers are nearly done with the
        // request path (on this machine C2 still compiled for a minute or more after 30 s of load)
        while (!warm(warmedUp, round) && System.nanoTime() < warmupEnd) {
            round = run(client, gateway + path, "Bearer " + apiKey, 10, concurrency, 0, null, processes);
            warmedUp += round.requests;
        }
        System.out.printf("gateway warmed up with %d requests in %.0f s; JIT compilers %.1f%% of its CPU in the last 10 s%n",
                warmedUp, (System.nanoTime() - warmupStart) / 1e9, 100 * round.gatewayJit / Math.max(1e-9, round.gatewayCpu));
        if (Boolean.getBoolean("gatewayOnly")) {
            Result r = run(client, gateway + path, "Bearer " + apiKey, seconds, concurrency, 0, "gateway", processes);
            Idle idle = idle(processes, 10);
            System.out.printf("gateway only: %.3f CPU ms/request, %.3f net of idle (%.1f ms/s)%n", r.gatewayCpu,
                    r.gatewayCpu - idle.gateway / r.rps, idle.gateway);
            return;
        }
        run(client, direct + path, directAuthorization, warmup / 2, concurrency, 0, null, processes);
        System.out.println("-- maximum throughput (closed loop)");
        Result viaGateway = run(client, gateway + path, "Bearer " + apiKey, seconds, concurrency, 0, "gateway", processes);
        Result directly = run(client, direct + path, directAuthorization, seconds, concurrency, 0, "direct", processes);
        double half = viaGateway.rps / 2;
        System.out.printf("-- half of the gateway's maximum: %.0f requests/s both ways%n", half);
        Result halfGateway = run(client, gateway + path, "Bearer " + apiKey, seconds, concurrency, half, "gateway", processes);
        Result halfDirect = run(client, direct + path, directAuthorization, seconds, concurrency, half, "direct", processes);
        // what each process spends with no request at all (Kafka polls, metrics, timers), read after the
        // phases, once the JIT has settled: per-request figures at a low rate include it, so it is
        // printed, and subtracted in the "net" figures
        Idle idle = idle(processes, 10);
        System.out.printf("idle CPU after the phases: gateway %.1f ms/s, backend %.1f ms/s%n", idle.gateway, idle.backend);
        System.out.printf("ratio: gateway keeps %.1f%% of direct throughput (target >= 80%%); p50 +%.2f ms, p99 +%.2f ms at maximum%n",
                100.0 * viaGateway.rps / directly.rps, viaGateway.p50 - directly.p50, viaGateway.p99 - directly.p99);
        System.out.printf("at half load: p50 +%.2f ms (target <= 1 ms), p99 +%.2f ms%n",
                halfGateway.p50 - halfDirect.p50, halfGateway.p99 - halfDirect.p99);
        System.out.printf("CPU per proxied request: gateway %.3f ms at maximum, %.3f ms at half load (target <= 0.5 ms and below"
                        + " the backend's); backend %.3f ms behind the gateway, %.3f ms called directly%n",
                viaGateway.gatewayCpu, halfGateway.gatewayCpu, viaGateway.backendCpu, directly.backendCpu);
        System.out.printf("of the gateway's, its JIT compilers: %.3f ms at maximum, %.3f ms at half load%n",
                viaGateway.gatewayJit, halfGateway.gatewayJit);
        System.out.printf("the same net of idle CPU: gateway %.3f ms at maximum, %.3f ms at half load; backend %.3f ms behind"
                        + " the gateway, %.3f ms called directly%n",
                viaGateway.gatewayCpu - idle.gateway / viaGateway.rps, halfGateway.gatewayCpu - idle.gateway / halfGateway.rps,
                viaGateway.backendCpu - idle.backend / viaGateway.rps, directly.backendCpu - idle.backend / directly.rps);
        System.out.printf("load average after the run: %s%n", loadAverage());
    }

    /**
     * {@code -Dgateway.against=<jar>}: two builds of the gateway side by side, the one of {@code -Dgateway.jar} (A) and
     * this one (B, on the next ports), loaded at the same time by half of the clients each, so that both see the same
     * machine (this machine's speed drifts by a third within minutes, more than a change of a few percent). Both are
     * warmed up until each has answered {@code warmup.requests} and its JIT compilers are nearly done, then measured
     * in {@code rounds} (-Drounds, 3) rounds of {@code seconds}: requests/s and CPU ms a request of each, with its JIT
     * compilers' share.
     */
    static void sideBySide(String secrets, String againstJar, Process gatewayA, long backendPid, String authorization,
            String path, int seconds, int concurrency, int warmup) throws Exception {
        Process gatewayB = startGateway(secrets, againstJar, GATEWAY_PORT + 1, GATEWAY_MANAGEMENT_PORT + 1,
                "bench-gateway-b.log", System.getProperty("gateway.against.java", gatewayJava()),
                words(System.getProperty("gateway.against.jvm", "")), words(System.getProperty("gateway.against.args", "")));
        Runtime.getRuntime().addShutdownHook(new Thread(gatewayB::destroy));
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        String[] urls = {"http://127.0.0.1:" + GATEWAY_PORT + path, "http://127.0.0.1:" + (GATEWAY_PORT + 1) + path};
        Processes[] processes = {new Processes(gatewayA.pid(), backendPid), new Processes(gatewayB.pid(), backendPid)};
        int half = Math.max(1, concurrency / 2);
        long warmupEnd = System.nanoTime() + Duration.ofSeconds(5L * warmup).toNanos();
        long[] warmedUp = new long[2];
        Result[] round = both(client, urls, authorization, warmup, half, processes, null);
        while (System.nanoTime() < warmupEnd) {
            boolean done = true;
            for (int i = 0; i < 2; i++) {
                warmedUp[i] += round[i].requests;
                done &= warm(warmedUp[i], round[i]);
            }
            if (done) {
                break;
            }
            round = both(client, urls, authorization, 10, half, processes, null);
        }
        System.out.printf("side by side, %d clients each: A %s, B %s; load average %s%n", half,
                System.getProperty("gateway.jar", "gateway/target/gateway.jar"), againstJar, loadAverage());
        int rounds = Integer.getInteger("rounds", 3);
        double[] sum = new double[4];
        for (int r = 1; r <= rounds; r++) {
            Result[] measured = both(client, urls, authorization, seconds, half, processes, new String[] {"A", "B"});
            for (int i = 0; i < 2; i++) {
                sum[i] += measured[i].gatewayCpu;
                sum[2 + i] += measured[i].gatewayCpu - measured[i].gatewayJit;
            }
        }
        System.out.printf("mean CPU ms a request: A %.3f (%.3f without its JIT compilers), B %.3f (%.3f); A / B %.3f (%.3f)%n",
                sum[0] / rounds, sum[2] / rounds, sum[1] / rounds, sum[3] / rounds, sum[0] / sum[1], sum[2] / sum[3]);
        gatewayB.destroy();
    }

    /**
     * Whether a gateway is warm: it has answered {@code warmup.requests} (20,000), and its JIT compilers took at most
     * {@code warmup.jit} (3 %) of its CPU in the last warm-up round.
     */
    static boolean warm(long warmedUp, Result lastRound) {
        return warmedUp >= Long.getLong("warmup.requests", 20_000)
                && lastRound.gatewayJit <= Double.parseDouble(System.getProperty("warmup.jit", "0.03")) * lastRound.gatewayCpu;
    }

    /** One phase of both gateways at once, closed loop, {@code clients} each. */
    static Result[] both(HttpClient client, String[] urls, String authorization, int seconds, int clients,
            Processes[] processes, String[] labels) throws Exception {
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            List<Future<Result>> results = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                int which = i;
                results.add(two.submit(() -> run(client, urls[which], authorization, seconds, clients, 0,
                        labels == null ? null : "gateway", processes[which], labels == null ? null : labels[which])));
            }
            return new Result[] {results.get(0).get(), results.get(1).get()};
        } finally {
            two.shutdown();
        }
    }

    /**
     * {@code --serve}: only the benchmark's gateway, for another benchmark (McpVsRestBench): prints
     * {@code ready <url>} once it is ready and stops it when standard input closes.
     */
    static void serve() throws Exception {
        Process gateway = startGateway(Files.readString(STATE.resolve("secrets.env")));
        Runtime.getRuntime().addShutdownHook(new Thread(gateway::destroy));
        System.out.println("ready http://127.0.0.1:" + GATEWAY_PORT + " " + gateway.pid());
        System.out.flush();
        while (System.in.read() >= 0) {
            // until the other benchmark closes our standard input (or exits)
        }
        gateway.destroy();
        gateway.waitFor(30, java.util.concurrent.TimeUnit.SECONDS);
    }

    /**
     * The benchmarks behind this gateway measure the suite's services once warm: a suite started with
     * C1 only (SUITE_JIT=quick, ./suite's default, for a fast start) would give figures of that mode.
     */
    static void requireFullJit() throws Exception {
        try (var pids = Files.list(STATE.resolve("pids"))) {
            for (Path pid : pids.filter(p -> p.getFileName().toString().matches(".*(-service|gateway)\\.pid")).toList()) {
                Path cmdline = Path.of("/proc", Files.readString(pid).trim(), "cmdline");
                if (Files.exists(cmdline) && Files.readString(cmdline).contains("-XX:TieredStopAtLevel=1")) {
                    throw new IllegalStateException(pid.getFileName().toString().replace(".pid", "")
                            + " of the suite runs with C1 only (SUITE_JIT=quick, ./suite's default): for steady-state"
                            + " figures run ./suite down, then SUITE_JIT=full ./suite up (bench/ServiceStart.md)");
                }
            }
        }
    }

    static Process startGateway(String secrets) throws Exception {
        return startGateway(secrets, System.getProperty("gateway.jar", "gateway/target/gateway.jar"), GATEWAY_PORT,
                GATEWAY_MANAGEMENT_PORT, "bench-gateway.log", gatewayJava(),
                List.of(), words(System.getProperty("gateway.a.args", "")));
    }

    /**
     * {@code -Dgateway.bare=true}: in place of the gateway, bench/BareProxy.java (a reverse proxy on the gateway's Reactor
     * Netty and nothing else: it swaps the caller's key for a fixed internal token), run from the gateway jar's libraries
     * with the same JVM options. What it keeps of direct throughput is the floor under any gateway on this stack.
     */
    static Process startBareProxy(String secrets, String backend, String authorization) throws Exception {
        requireFullJit();
        Path lib = STATE.resolve("bench-bare-proxy-lib");
        Files.createDirectories(lib);
        try (java.util.zip.ZipFile jar = new java.util.zip.ZipFile(System.getProperty("gateway.jar", "gateway/target/gateway.jar"))) {
            for (java.util.zip.ZipEntry entry : java.util.Collections.list(jar.entries())) {
                if (entry.getName().startsWith("BOOT-INF/lib/") && entry.getName().endsWith(".jar")) {
                    try (var in = jar.getInputStream(entry)) {
                        Files.copy(in, lib.resolve(entry.getName().substring("BOOT-INF/lib/".length())),
                                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
        }
        List<String> command = new ArrayList<>(List.of(Path.of(gatewayJava(), "bin", "java").toString(),
                "-Xms64m", "-Xmx256m", "-XX:+UseSerialGC"));
        command.addAll(words(System.getProperty("gateway.jvm", "")));
        command.addAll(List.of("-cp", lib + "/*", "bench/BareProxy.java", String.valueOf(GATEWAY_PORT),
                String.valueOf(GATEWAY_MANAGEMENT_PORT), backend));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(STATE.resolve("logs/bench-bare-proxy.log").toFile());
        builder.environment().put("BARE_PROXY_AUTHORIZATION", authorization);
        return awaitReady(builder.start(), GATEWAY_MANAGEMENT_PORT, "/", "bench-bare-proxy.log");
    }

    /** The JDK the gateway runs on (A, and B unless -Dgateway.against.java): -Dgateway.java, else the benchmark's. */
    static String gatewayJava() {
        return System.getProperty("gateway.java", System.getProperty("java.home"));
    }

    static Process startGateway(String secrets, String jar, int port, int managementPort, String log, String javaHome,
            List<String> jvm, List<String> args) throws Exception {
        requireFullJit();
        List<String> command = new ArrayList<>(List.of(Path.of(javaHome, "bin", "java").toString(),
                "-Xms64m", "-Xmx256m", "-XX:+UseSerialGC"));
        command.addAll(words(System.getProperty("gateway.jvm", "")));
        command.addAll(jvm);
        command.addAll(List.of("-jar", jar,
                "--server.port=" + port, "--server.address=127.0.0.1",
                "--management.server.port=" + managementPort, "--management.server.address=127.0.0.1",
                "--suite.rate-limit.plans.plus=1000000000",
                // the suite created its topics with its own partition count (one, in a new state directory); this
                // gateway would declare the platform's default of three. Since session 38 the platform never grows an
                // existing topic (ExistingTopicsGuard: it would only warn), and this gateway declares none at all
                "--suite.kafka.create-topics=false"));
        for (String[] service : new String[][] {{"auth-service", "8081"}, {"visibility-service", "8082"},
                {"actions-service", "8083"}, {"outcomes-service", "8084"}, {"traffic-service", "8085"},
                {"agents-service", "8086"}, {"webhook-service", "8087"}, {"mcp-service", "8088"}}) {
            command.add("--suite.services." + service[0] + "=http://127.0.0.1:" + (Integer.parseInt(service[1]) + OFFSET));
        }
        command.addAll(words(System.getProperty("gateway.args", "")));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(STATE.resolve("logs/" + log).toFile());
        builder.environment().put("SPRING_KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:" + (9092 + OFFSET));
        builder.environment().put("SUITE_INTERNAL_TOKEN_PRIVATE_KEY", env(secrets, "SUITE_INTERNAL_TOKEN_PRIVATE_KEY"));
        builder.environment().put("SUITE_INTERNAL_TOKEN_PUBLIC_KEY", env(secrets, "SUITE_INTERNAL_TOKEN_PUBLIC_KEY"));
        return awaitReady(builder.start(), managementPort, "/actuator/health/readiness", log);
    }

    static Process awaitReady(Process process, int managementPort, String path, String log) throws Exception {
        HttpClient probe = HttpClient.newHttpClient();
        URI readiness = URI.create("http://127.0.0.1:" + managementPort + path);
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the benchmark's gateway exited; see " + STATE.resolve("logs/" + log));
            }
            try {
                if (probe.send(HttpRequest.newBuilder(readiness).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return process;
                }
            } catch (java.io.IOException notYet) {
                // still starting
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException("the benchmark's gateway did not start; see " + STATE.resolve("logs/" + log));
    }

    /**
     * {@code -Dlayout=pinned}: the backend and the suite's PostgreSQL alone on the last core, the gateway and this
     * benchmark's client on the others. Threads started later inherit their creator's affinity (and PostgreSQL's
     * connections the postmaster's), so every thread of each process is set now and stays set. The backend and
     * PostgreSQL are the suite's: they get every core back when the benchmark exits.
     */
    static void pinLayout(long gatewayPid, long backendPid) throws Exception {
        int cores = Runtime.getRuntime().availableProcessors();
        if (cores < 2) {
            throw new IllegalStateException("-Dlayout=pinned needs at least 2 cores, this JVM sees " + cores);
        }
        String backendCore = String.valueOf(cores - 1);
        String others = cores == 2 ? "0" : "0-" + (cores - 2);
        long postmaster = Long.parseLong(Files.readString(STATE.resolve("pids/postgres.pid")).trim());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            for (long pid : backendSide(backendPid, postmaster)) {
                try {
                    taskset(pid, "0-" + (cores - 1));
                } catch (Exception e) {
                    System.err.println("could not give pid " + pid + " its cores back: " + e.getMessage());
                }
            }
        }));
        List<Long> backendSide = backendSide(backendPid, postmaster);
        for (long pid : backendSide) {
            try {
                taskset(pid, backendCore);
            } catch (IllegalStateException e) {
                if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                    throw e;
                }
                // a PostgreSQL connection that closed meanwhile
            }
        }
        taskset(gatewayPid, others);
        taskset(ProcessHandle.current().pid(), others);
        System.out.printf("pinned: backend (pid %d) and PostgreSQL (%d processes) on core %s; gateway (pid %d) and this"
                + " client on core(s) %s%n", backendPid, backendSide.size() - 1, backendCore, gatewayPid, others);
    }

    /** The backend, the postmaster and the postmaster's processes as they are now. */
    static List<Long> backendSide(long backendPid, long postmaster) {
        List<Long> pids = new ArrayList<>(List.of(backendPid, postmaster));
        ProcessHandle.of(postmaster).ifPresent(p -> p.children().forEach(child -> pids.add(child.pid())));
        return pids;
    }

    static void taskset(long pid, String cores) throws Exception {
        Process taskset = new ProcessBuilder("taskset", "--all-tasks", "--cpu-list", "--pid", cores, String.valueOf(pid))
                .redirectErrorStream(true).start();
        String output = new String(taskset.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!taskset.waitFor(10, java.util.concurrent.TimeUnit.SECONDS) || taskset.exitValue() != 0) {
            throw new IllegalStateException("taskset of pid " + pid + " to " + cores + " failed: " + output.trim());
        }
    }

    /** CPU ms per second that each process spends without requests. */
    record Idle(double gateway, double backend) {
    }

    static Idle idle(Processes processes, int seconds) throws Exception {
        Thread.sleep(2000); // let the last phase's work (connections closing, timers) settle
        long g0 = cpuMillis(processes.gateway());
        long b0 = cpuMillis(processes.backend());
        long t0 = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        double elapsed = (System.nanoTime() - t0) / 1e9;
        return new Idle((cpuMillis(processes.gateway()) - g0) / elapsed, (cpuMillis(processes.backend()) - b0) / elapsed);
    }

    /** The gateway's and the backend's pids, whose CPU time each phase reads. */
    record Processes(long gateway, long backend) {
    }

    /** @param gatewayCpu CPU ms of the gateway process per request of the phase; backendCpu the same for the backend */
    record Result(double rps, double p50, double p99, double gatewayCpu, double backendCpu, long requests, double gatewayJit) {
    }

    /**
     * One phase: {@code concurrency} clients for {@code seconds}; {@code rate} 0 sends without pause
     * (closed loop), otherwise requests are started at that total rate (each at its scheduled time;
     * its latency is measured from when it is sent).
     */
    static Result run(HttpClient client, String url, String authorization, int seconds, int concurrency, double rate,
            String label, Processes processes) throws Exception {
        return run(client, url, authorization, seconds, concurrency, rate, label, processes, label);
    }

    /** {@code label} "gateway" counts the gateway's CPU; {@code name} is what the printed line starts with. */
    static Result run(HttpClient client, String url, String authorization, int seconds, int concurrency, double rate,
            String label, Processes processes, String name) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).header("Authorization", authorization)
                .timeout(Duration.ofSeconds(10)).build();
        AtomicLong errors = new AtomicLong();
        AtomicLong tickets = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(concurrency);
        List<Future<List<Long>>> workers = new ArrayList<>();
        long gatewayCpu0 = cpuMillis(processes.gateway());
        long backendCpu0 = cpuMillis(processes.backend());
        long gatewayJit0 = jitMillis(processes.gateway());
        long backendJit0 = jitMillis(processes.backend());
        long clientCpu0 = cpuMillis(ProcessHandle.current().pid());
        long[] machine0 = machineTicks();
        long started = System.nanoTime();
        long end = started + Duration.ofSeconds(seconds).toNanos();
        for (int i = 0; i < concurrency; i++) {
            workers.add(pool.submit(() -> {
                List<Long> latencies = new ArrayList<>();
                while (true) {
                    if (rate > 0) {
                        long due = started + (long) (tickets.getAndIncrement() * 1e9 / rate);
                        if (due >= end) {
                            break;
                        }
                        long wait;
                        while ((wait = due - System.nanoTime()) > 0) {
                            LockSupport.parkNanos(wait);
                        }
                    } else if (System.nanoTime() >= end) {
                        break;
                    }
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
        long gatewayCpu = cpuMillis(processes.gateway()) - gatewayCpu0;
        long backendCpu = cpuMillis(processes.backend()) - backendCpu0;
        long gatewayJit = jitMillis(processes.gateway()) - gatewayJit0;
        long backendJit = jitMillis(processes.backend()) - backendJit0;
        long clientCpu = cpuMillis(ProcessHandle.current().pid()) - clientCpu0;
        long[] machine1 = machineTicks();
        pool.shutdown();
        Collections.sort(all);
        int n = Math.max(1, all.size());
        // a warm-up round (no label) goes through the gateway too, and its JIT share decides when warming up ends
        boolean viaGateway = label == null || "gateway".equals(label);
        Result result = new Result(all.size() / elapsed, pct(all, 50), pct(all, 99),
                viaGateway ? (double) gatewayCpu / n : 0, (double) backendCpu / n, all.size(), (double) gatewayJit / n);
        if (label != null) {
            double busy = 100.0 * (machine1[0] - machine0[0]) / Math.max(1, machine1[1] - machine0[1]);
            System.out.printf("%-8s %7.0f req/s  p50 %6.2f ms  p99 %6.2f ms  (%d requests, %d non-200)  CPU ms/request:"
                            + " gateway %s, backend %.3f, this client %.3f (of it JIT compilers: gateway %s, backend %.3f);"
                            + " machine busy %.0f%%, load %s%n",
                    name, result.rps, result.p50, result.p99, all.size(), errors.get(),
                    viaGateway ? String.format("%.3f", result.gatewayCpu) : "-", result.backendCpu, (double) clientCpu / n,
                    viaGateway ? String.format("%.3f", (double) gatewayJit / n) : "-", (double) backendJit / n,
                    busy, loadAverage());
        }
        return result;
    }

    static double pct(List<Long> sorted, int p) {
        return sorted.isEmpty() ? 0 : sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1)) / 1e6;
    }

    /** utime + stime of a process, in milliseconds (fields 14 and 15 of /proc/<pid>/stat). */
    static long cpuMillis(long pid) throws Exception {
        return cpuTicks(Path.of("/proc/" + pid + "/stat")) * 1000 / CLOCK_TICKS;
    }

    /** utime + stime in clock ticks, from a process's or a thread's {@code stat} file. */
    static long cpuTicks(Path statFile) throws java.io.IOException {
        String stat = Files.readString(statFile);
        // the command name (field 2) may hold spaces: count the fields after its closing parenthesis
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    /**
     * CPU of a process's JIT compiler threads ({@code C1/C2 CompilerThread}s), in milliseconds: compilation still
     * going on in a measured phase is start-up cost, not the cost of a request.
     */
    static long jitMillis(long pid) throws Exception {
        long ticks = 0;
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String name = Files.readString(task.resolve("comm"));
                    if (!name.startsWith("C1 CompilerThre") && !name.startsWith("C2 CompilerThre")) {
                        continue;
                    }
                    ticks += cpuTicks(task.resolve("stat"));
                } catch (java.io.IOException gone) {
                    // a compiler thread that ended meanwhile
                }
            }
        }
        return ticks * 1000 / CLOCK_TICKS;
    }

    /** {busy, total} ticks of the whole machine (first line of /proc/stat). */
    static long[] machineTicks() throws Exception {
        String[] cpu = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
        long total = 0;
        for (int i = 1; i < cpu.length; i++) {
            total += Long.parseLong(cpu[i]);
        }
        long idle = Long.parseLong(cpu[4]) + Long.parseLong(cpu[5]);
        return new long[] {total - idle, total};
    }

    static String loadAverage() throws Exception {
        String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
        return parts[0] + " " + parts[1] + " " + parts[2];
    }

    static long clockTicks() {
        try {
            Process getconf = new ProcessBuilder("getconf", "CLK_TCK").start();
            String out = new String(getconf.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return getconf.waitFor() == 0 ? Long.parseLong(out) : 100;
        } catch (Exception e) {
            return 100;
        }
    }

    static List<String> words(String text) {
        return text.isBlank() ? List.of() : Arrays.asList(text.trim().split("\\s+"));
    }

    /** The internal token the gateway would mint for the demo key (RS256, DESIGN.md request path 5). */
    static String token(String secret, String projectId, long ttlSeconds) throws Exception {
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        long now = System.currentTimeMillis() / 1000;
        String header = b64.encodeToString("{\"alg\":\"RS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        String claims = b64.encodeToString(("{\"iss\":\"suite-gateway\",\"aud\":\"suite-services\",\"sub\":\"bench\",\"jti\":\""
                + UUID.randomUUID() + "\",\"iat\":" + now + ",\"exp\":" + (now + ttlSeconds) + ",\"proj\":\"" + projectId
                + "\",\"key\":\"bench\",\"scp\":[],\"feat\":[]}").getBytes(StandardCharsets.UTF_8));
        // RS256 with the gateway's private key (base64 of PKCS#8, as ./suite keeps it in secrets.env)
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
            throw new IllegalStateException(name + " missing from credentials.json: run ./suite up first");
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
        throw new IllegalStateException(name + " missing from secrets.env");
    }
}
