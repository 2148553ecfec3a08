package dev.visibility.platform.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A real Kafka broker in its own process, so that it can be stopped ({@code SIGTERM}) or killed
 * ({@code SIGKILL}) and started again on the same ports and log directory: one KRaft node that is
 * broker and controller, run from the Kafka jars of the test classpath ({@code kafka.Kafka}),
 * storage formatted with {@code kafka.tools.StorageTool} — the way {@code ./suite} runs it
 * ({@code write_kafka_config}, {@code start_kafka}). Used by webhook-service's
 * {@code BrokerRestartTest} and system-tests' broker drill. The broker's own log goes to {@code kafka.log} in its directory.
 * (The shared broker of the test JVM, an {@code EmbeddedKafkaKraftBroker}, cannot be restarted with
 * its data.)
 */
public final class KafkaProcess implements AutoCloseable {

    private static final Duration START_LIMIT = Duration.ofSeconds(120);

    private final Path dir;
    private final Path config;
    private final Path log;
    private final int port;
    private final String classpath;
    private volatile Process process;

    private KafkaProcess(Path dir, int port, int controllerPort) throws IOException {
        this.dir = dir;
        this.port = port;
        this.config = dir.resolve("server.properties");
        this.log = dir.resolve("kafka.log");
        // surefire's fork runs from a manifest-only jar; it names the real test classpath here
        this.classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        // a test JVM that ends early leaves no broker behind
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            Process running = process;
            if (running != null) {
                running.destroyForcibly();
            }
        }, "stop-kafka-process"));
        Files.createDirectories(dir);
        String host = "127.0.0.1";
        Files.writeString(config, String.join("\n",
                "process.roles=broker,controller",
                "node.id=1",
                "listeners=PLAINTEXT://" + host + ":" + port + ",CONTROLLER://" + host + ":" + controllerPort,
                "advertised.listeners=PLAINTEXT://" + host + ":" + port,
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "inter.broker.listener.name=PLAINTEXT",
                "controller.listener.names=CONTROLLER",
                "controller.quorum.bootstrap.servers=" + host + ":" + controllerPort,
                "log.dirs=" + dir.resolve("data"),
                "num.partitions=3",
                "default.replication.factor=1",
                "min.insync.replicas=1",
                "offsets.topic.replication.factor=1",
                "offsets.topic.num.partitions=10",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "transaction.state.log.num.partitions=10",
                "share.coordinator.state.topic.replication.factor=1",
                "share.coordinator.state.topic.min.isr=1",
                "group.initial.rebalance.delay.ms=0",
                "auto.create.topics.enable=true",
                "num.network.threads=2",
                "num.io.threads=2",
                "background.threads=2",
                "num.recovery.threads.per.data.dir=1",
                ""), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("logback.xml"), """
                <configuration>
                  <appender name="out" class="ch.qos.logback.core.ConsoleAppender">
                    <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{30} - %msg%n</pattern></encoder>
                  </appender>
                  <logger name="kafka.server.KafkaRaftServer" level="INFO"/>
                  <logger name="kafka.log" level="INFO"/>
                  <root level="WARN"><appender-ref ref="out"/></root>
                </configuration>
                """, StandardCharsets.UTF_8);
    }

    /** Formats the storage of a new single-node cluster in {@code dir} on two free ports; not started yet. */
    public static KafkaProcess format(Path dir) {
        try {
            KafkaProcess kafka = new KafkaProcess(dir, freePort(), freePort());
            String clusterId = Uuid.randomUuid().toString();
            while (clusterId.startsWith("-")) {
                clusterId = Uuid.randomUuid().toString();
            }
            Process format = kafka.java("kafka.tools.StorageTool", "format", "-t", clusterId, "-c",
                    kafka.config.toString(), "--standalone").start();
            if (!format.waitFor(START_LIMIT.toSeconds(), TimeUnit.SECONDS) || format.exitValue() != 0) {
                format.destroyForcibly();
                throw new IllegalStateException("Formatting the Kafka storage failed; see " + kafka.log);
            }
            return kafka;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    public Path log() {
        return log;
    }

    /** Starts the broker and waits until it answers a metadata request. */
    public void start() {
        try {
            process = java("kafka.Kafka", config.toString()).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            Awaitility.await("the Kafka broker answering (log: " + log + ")").atMost(START_LIMIT).pollInterval(Duration.ofMillis(200))
                    .failFast("The Kafka broker exited while starting; see " + log, () -> !process.isAlive())
                    .until(this::ready);
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException("The Kafka broker did not start within " + START_LIMIT + "; see " + log, e);
        }
    }

    /** SIGKILL: the process ends at once, without closing anything (what it wrote stays in the page cache). */
    public void kill() {
        if (process == null) {
            return;
        }
        process.destroyForcibly();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("The Kafka broker did not die");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        process = null;
    }

    /** SIGTERM: a controlled shutdown (the broker flushes and closes its logs), awaited for up to 2 minutes. */
    public void stop() {
        if (process == null) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(2, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException("The Kafka broker did not stop within 2 minutes on SIGTERM; see " + log);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        process = null;
    }

    private boolean ready() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
        } catch (IOException e) {
            return false;
        }
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3_000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5_000))) {
            return !admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty();
        } catch (Exception e) {
            return false;
        }
    }

    private ProcessBuilder java(String mainClass, String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms64m", "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true",
                "-Dlogback.configurationFile=" + dir.resolve("logback.xml"), "-cp", classpath, mainClass));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    }

    @Override
    public void close() {
        kill();
    }

    /** A free port now; another process may take it before it is bound, as with any such probe. */
    private static synchronized int freePort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
