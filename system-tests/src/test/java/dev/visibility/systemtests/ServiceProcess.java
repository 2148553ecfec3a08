package dev.visibility.systemtests;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.visibility.platform.testing.TestFiles;

/**
 * One of the suite's processes (a service jar, or Redis) started by the tests exactly as
 * {@code ./suite up} starts it, with its log in {@code target/process-logs}.
 */
public final class ServiceProcess {

    private static final Path ROOT = Path.of(System.getProperty("suite.root", "..")).toAbsolutePath().normalize();
    private static final Path LOGS = Path.of(System.getProperty("suite.logs", "target/process-logs"));
    private static final Path APPS = LOGS.toAbsolutePath().resolveSibling("apps");

    private final String name;
    private final int port;
    private final Process process;
    private final Path log;
    /** The Actuator's port (health, info, prometheus; never routed by the gateway), 0 for Redis. */
    private int managementPort;

    private ServiceProcess(String name, int port, Process process, Path log) {
        this.name = name;
        this.port = port;
        this.process = process;
        this.log = log;
        Runtime.getRuntime().addShutdownHook(new Thread(this::stop, "stop-" + name));
    }

    /** Starts {@code <module>/target/<module>.jar} on a free port with the given environment. */
    public static ServiceProcess startJar(String module, String instance, Map<String, String> env, String... args) {
        return startJar(module, instance, freePort(), env, args);
    }

    /** Starts {@code <module>/target/<module>.jar} on {@code port} (a drill starts a killed service again where it was). */
    public static ServiceProcess startJar(String module, String instance, int port, Map<String, String> env, String... args) {
        Path jar = ROOT.resolve(module).resolve("target").resolve(module + ".jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: build the project first (mvn -B verify at the root)");
        }
        int management = freePort();
        List<String> command = new ArrayList<>(List.of(javaBinary(), "-Xms32m", "-Xmx256m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-XX:+ExitOnOutOfMemoryError", "-jar", runnable(module, jar).toString(),
                "--server.port=" + port, "--server.address=127.0.0.1",
                "--management.server.port=" + management, "--management.server.address=127.0.0.1"));
        command.addAll(List.of(args));
        ServiceProcess started = start(instance, port, command, env);
        started.managementPort = management;
        return started;
    }

    /** Extracts the jars of these modules side by side (see {@link #runnable}), before they start. */
    public static void prepare(String... modules) {
        java.util.Arrays.stream(modules).parallel()
                .forEach(module -> runnable(module, ROOT.resolve(module).resolve("target").resolve(module + ".jar")));
    }

    /**
     * The module's jar extracted ({@code java -Djarmode=tools extract}, the layout {@code ./suite up} writes)
     * into {@code target/apps/<module>/}, once per version of the jar (size and modification time):
     * a JVM starts on about a third less CPU from the extracted jar than from the nested one. Falls
     * back to the jar as it is when extraction fails (for example while the jar is being rebuilt).
     */
    static Path runnable(String module, Path jar) {
        try {
            String stamp = stamp(jar);
            Path dir = APPS.resolve(module);
            Path thin = dir.resolve(module + ".jar");
            Path stampFile = dir.resolve("source.stamp");
            if (Files.isRegularFile(thin) && Files.isRegularFile(stampFile) && Files.readString(stampFile).equals(stamp)) {
                return thin;
            }
            Files.createDirectories(APPS);
            Path temporary = APPS.resolve("." + module + ".tmp");
            TestFiles.deleteTree(temporary);
            Process extract = new ProcessBuilder(javaBinary(), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                    "-Djarmode=tools", "-jar", jar.toString(), "extract", "--destination", temporary.toString())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            boolean done = extract.waitFor(2, java.util.concurrent.TimeUnit.MINUTES);
            if (!done || extract.exitValue() != 0 || !Files.isRegularFile(temporary.resolve(module + ".jar"))
                    || !stamp(jar).equals(stamp)) {
                extract.destroyForcibly();
                TestFiles.deleteTree(temporary);
                return jar;
            }
            Files.writeString(temporary.resolve("source.stamp"), stamp);
            TestFiles.deleteTree(dir);
            Files.move(temporary, dir, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            return thin;
        } catch (IOException e) {
            return jar;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return jar;
        }
    }

    private static String stamp(Path jar) throws IOException {
        return Files.size(jar) + " " + Files.getLastModifiedTime(jar).toMillis();
    }

    /** Starts a Redis server on a free port, without persistence. */
    public static ServiceProcess startRedis() {
        return startRedis(freePort());
    }

    /** Starts a Redis server on {@code port} (a drill starts it again where it was), without persistence. */
    public static ServiceProcess startRedis(int port) {
        String binary = Files.isExecutable(Path.of("/usr/bin/redis-server")) ? "/usr/bin/redis-server" : "redis-server";
        ServiceProcess redis = start("redis", port, List.of(binary, "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no"), Map.of());
        Waits.until("redis-server listening on " + port + " (log: " + redis.log + ")", Duration.ofSeconds(20), () -> {
            redis.assertAlive();
            try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
                return true;
            } catch (IOException e) {
                return false;
            }
        }, listening -> listening);
        return redis;
    }

    private static ServiceProcess start(String name, int port, List<String> command, Map<String, String> env) {
        try {
            Files.createDirectories(LOGS);
            Path log = LOGS.resolve(name + ".log");
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .directory(ROOT.toFile());
            builder.environment().putAll(env);
            return new ServiceProcess(name, port, builder.start(), log);
        } catch (IOException e) {
            throw new IllegalStateException("Could not start " + name + ": " + e.getMessage(), e);
        }
    }

    /** Waits until the Actuator readiness probe answers 200. */
    public ServiceProcess awaitReady(Duration within) {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        Waits.until(name + " ready (log: " + log + ")", within, () -> {
            assertAlive();
            try {
                HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(managementUrl() + "/actuator/health/readiness"))
                        .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
                return response.statusCode() == 200;
            } catch (IOException e) {
                return false; // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }, ready -> ready);
        return this;
    }

    private void assertAlive() {
        if (!process.isAlive()) {
            // keep the log of the failed start: a retry of the start writes <name>.log again
            Path kept = log.resolveSibling(name + "-exited-" + System.currentTimeMillis() + ".log");
            try {
                Files.copy(log, kept);
            } catch (IOException e) {
                kept = log;
            }
            throw new IllegalStateException(name + " exited with " + process.exitValue() + "; see " + kept);
        }
    }

    /** Whether the process still runs (a drill's services must outlive the broker's restarts). */
    public boolean isAlive() {
        return process.isAlive();
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** Where the Actuator answers: health, info and {@code /actuator/prometheus}. */
    public String managementUrl() {
        return "http://127.0.0.1:" + managementPort;
    }

    public int port() {
        return port;
    }

    /** Ends the process at once ({@code SIGKILL}), as a crash would, and waits until it is gone. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public void stop() {
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(15, java.util.concurrent.TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * A port that is free now, chosen outside the kernel's ephemeral range (32768-60999 on Linux):
     * between choosing the port and the process binding it, an outgoing connection of any process
     * on the machine (Kafka, PostgreSQL, HTTP clients) could otherwise be given the same number.
     */
    static synchronized int freePort() {
        for (int i = 0; i < 500; i++) {
            int port = 20_000 + java.util.concurrent.ThreadLocalRandom.current().nextInt(12_000);
            if (!CHOSEN.add(port)) {
                continue;
            }
            try (ServerSocket socket = new ServerSocket()) {
                socket.bind(new java.net.InetSocketAddress("127.0.0.1", port));
                return port;
            } catch (IOException e) {
                // taken: try another
            }
        }
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final java.util.Set<Integer> CHOSEN = new java.util.HashSet<>();


    /** The process's output (stdout and stderr), as it has written it so far. */
    public Path log() {
        return log;
    }

    @Override
    public String toString() {
        return name + "@" + port + " (" + log + ")";
    }

    static File logsDir() {
        return LOGS.toFile();
    }
}
