package dev.visibility.helm;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.visibility.helm.SuiteChart.Manifests;
import dev.visibility.helm.SuiteChart.Node;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import static dev.visibility.helm.SuiteChart.RELEASE;
import static dev.visibility.helm.SuiteChart.SERVICES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 23 (operability): the external Kafka and PostgreSQL with TLS and SASL, and the gateway's shared
 * rate-limit store (Redis, with the per-replica fallback of issue 22). No secret value in a ConfigMap or a
 * plain {@code value:}.
 */
class ExternalSystemsTest {

    static final String SCRAM_OVER_TLS = """
            kafka:
              securityProtocol: SASL_SSL
              sasl:
                mechanism: SCRAM-SHA-512
                username: suite
                passwordSecret:
                  name: kafka-credentials
                  key: password
              tls:
                caSecret:
                  name: kafka-cluster-ca
                  key: ca.crt
            """;

    static final String POSTGRES_VERIFY_FULL = """
            postgres:
              sslMode: verify-full
              tls:
                caSecret:
                  name: postgres-ca
                  key: root.pem
            """;

    static final String REDIS = """
            rateLimit:
              store: redis
              redis:
                url: rediss://redis.cache.svc:6380/2
                username: suite-gateway
                passwordSecret:
                  name: redis-auth
                  key: redis-password
            """;

    @Test
    void byDefaultKafkaIsPlaintextPostgresUnencryptedAndTheGatewayCountsLocally() {
        Manifests rendered = SuiteChart.render();

        for (String service : SERVICES) {
            Map<String, Map<String, Object>> env = rendered.env(service);
            assertThat(env).as(service).doesNotContainKeys("SPRING_KAFKA_SECURITY_PROTOCOL",
                    "SPRING_KAFKA_PROPERTIES_SASL_MECHANISM", "SPRING_KAFKA_PROPERTIES_SASL_JAAS_CONFIG",
                    "KAFKA_SASL_PASSWORD", "SPRING_KAFKA_SSL_TRUST_STORE_LOCATION", "SPRING_FLYWAY_URL",
                    "SPRING_DATA_REDIS_HOST", "SPRING_DATA_REDIS_PASSWORD", "SUITE_RATE_LIMIT_REPLICAS");
            assertThat(volumeNames(rendered, service)).as(service).containsExactly("tmp");
            if (!service.equals("gateway")) {
                assertThat(env.get("SUITE_DB_SSL_MODE")).as(service).isEqualTo(configMapRef("SUITE_DB_SSL_MODE"));
            }
        }
        assertThat(Node.map(rendered.get("ConfigMap", RELEASE), "data")).containsEntry("SUITE_DB_SSL_MODE", "disable");
        assertThat(Node.string(rendered.env("gateway").get("SUITE_RATE_LIMIT_STORE"), "value")).isEqualTo("local");
    }

    @Test
    void saslSslWithScramLogsInWithAJaasLineThatOnlyRefersToThePasswordVariable() {
        Manifests rendered = SuiteChart.render(SCRAM_OVER_TLS);

        for (String service : SERVICES) {
            List<Map<String, Object>> env = Node.maps(rendered.container(service), "env");
            List<String> names = env.stream().map(entry -> (String) entry.get("name")).toList();
            Map<String, Map<String, Object>> byName = rendered.env(service);

            assertThat(value(byName, "SPRING_KAFKA_SECURITY_PROTOCOL")).as(service).isEqualTo("SASL_SSL");
            assertThat(value(byName, "SPRING_KAFKA_PROPERTIES_SASL_MECHANISM")).as(service).isEqualTo("SCRAM-SHA-512");
            assertThat(byName.get("KAFKA_SASL_PASSWORD")).as(service).isEqualTo(Map.of("name", "KAFKA_SASL_PASSWORD",
                    "valueFrom", Map.of("secretKeyRef", Map.of("name", "kafka-credentials", "key", "password"))));
            assertThat(value(byName, "SPRING_KAFKA_PROPERTIES_SASL_JAAS_CONFIG")).as(service).isEqualTo(
                    "org.apache.kafka.common.security.scram.ScramLoginModule required"
                            + " username=\"suite\" password=\"$(KAFKA_SASL_PASSWORD)\";");
            // Kubernetes expands $(VAR) only for variables declared earlier in the list
            assertThat(names.indexOf("KAFKA_SASL_PASSWORD")).as(service)
                    .isNotNegative().isLessThan(names.indexOf("SPRING_KAFKA_PROPERTIES_SASL_JAAS_CONFIG"));
            assertNoSecretInPlainValues(env, service);
        }
        assertThat(Node.map(rendered.get("ConfigMap", RELEASE), "data").keySet())
                .noneMatch(key -> key.contains("SASL") || key.contains("JAAS"));
    }

    @Test
    void theKafkaCaIsMountedReadOnlyAndUsedAsAPemTrustStore() {
        Manifests rendered = SuiteChart.render(SCRAM_OVER_TLS);

        for (String service : SERVICES) {
            Map<String, Map<String, Object>> env = rendered.env(service);
            assertThat(value(env, "SPRING_KAFKA_SSL_TRUST_STORE_TYPE")).as(service).isEqualTo("PEM");
            assertThat(value(env, "SPRING_KAFKA_SSL_TRUST_STORE_LOCATION")).as(service)
                    .isEqualTo("file:/etc/suite/kafka-ca/ca.crt");
            assertThat(Node.maps(rendered.container(service), "volumeMounts")).as(service)
                    .contains(Map.of("name", "kafka-ca", "mountPath", "/etc/suite/kafka-ca", "readOnly", true));
            assertThat(volume(rendered, service, "kafka-ca")).as(service).isEqualTo(Map.of("name", "kafka-ca",
                    "secret", Map.of("secretName", "kafka-cluster-ca", "defaultMode", 0444,
                            "items", List.of(Map.of("key", "ca.crt", "path", "ca.crt")))));
        }
    }

    @Test
    void plainOverSaslPlaintextUsesThePlainLoginModuleAndNoTrustStore() {
        Manifests rendered = SuiteChart.render("""
                kafka:
                  securityProtocol: SASL_PLAINTEXT
                  sasl:
                    mechanism: PLAIN
                    username: suite
                    passwordSecret:
                      name: kafka-credentials
                """);

        Map<String, Map<String, Object>> env = rendered.env("traffic-service");
        assertThat(value(env, "SPRING_KAFKA_SECURITY_PROTOCOL")).isEqualTo("SASL_PLAINTEXT");
        assertThat(value(env, "SPRING_KAFKA_PROPERTIES_SASL_JAAS_CONFIG")).isEqualTo(
                "org.apache.kafka.common.security.plain.PlainLoginModule required"
                        + " username=\"suite\" password=\"$(KAFKA_SASL_PASSWORD)\";");
        assertThat(env).doesNotContainKeys("SPRING_KAFKA_SSL_TRUST_STORE_TYPE", "SPRING_KAFKA_SSL_TRUST_STORE_LOCATION");
        assertThat(volumeNames(rendered, "traffic-service")).doesNotContain("kafka-ca");
    }

    @Test
    void tlsWithoutSaslTrustsTheCaAndSendsNoJaasLine() {
        Manifests rendered = SuiteChart.render("""
                kafka:
                  securityProtocol: SSL
                  tls:
                    caSecret:
                      name: kafka-cluster-ca
                """);

        Map<String, Map<String, Object>> env = rendered.env("gateway");
        assertThat(value(env, "SPRING_KAFKA_SECURITY_PROTOCOL")).isEqualTo("SSL");
        assertThat(value(env, "SPRING_KAFKA_SSL_TRUST_STORE_LOCATION")).isEqualTo("file:/etc/suite/kafka-ca/ca.crt");
        assertThat(env).doesNotContainKeys("SPRING_KAFKA_PROPERTIES_SASL_JAAS_CONFIG", "KAFKA_SASL_PASSWORD");
    }

    @Test
    void saslWithoutUserOrPasswordSecretIsRefused() {
        assertThatThrownBy(() -> SuiteChart.render("""
                kafka:
                  securityProtocol: SASL_SSL
                  sasl:
                    username: suite
                """))
                .hasMessageContaining("kafka.securityProtocol SASL_SSL needs kafka.sasl.username and kafka.sasl.passwordSecret.name");
    }

    @Test
    void postgresVerifyFullMountsTheCaForR2dbcAndFlyway() {
        Manifests rendered = SuiteChart.render(POSTGRES_VERIFY_FULL);

        assertThat(Node.map(rendered.get("ConfigMap", RELEASE), "data")).containsEntry("SUITE_DB_SSL_MODE", "verify-full");
        for (String service : SERVICES) {
            Map<String, Map<String, Object>> env = rendered.env(service);
            if (service.equals("gateway")) {
                // no database: no CA, and SPRING_APPLICATION_JSON stays the route table
                assertThat(volumeNames(rendered, service)).doesNotContain("postgres-ca");
                assertThat(env).doesNotContainKeys("SUITE_DB_SSL_MODE", "SPRING_FLYWAY_URL");
                assertThat(Node.string(env.get("SPRING_APPLICATION_JSON"), "valueFrom.configMapKeyRef.key"))
                        .isEqualTo("gateway-application.json");
                continue;
            }
            assertThat(env.get("SUITE_DB_SSL_MODE")).as(service).isEqualTo(configMapRef("SUITE_DB_SSL_MODE"));
            assertThat(value(env, "SPRING_FLYWAY_URL")).as(service).isEqualTo("jdbc:postgresql://postgres.databases.svc:5432/suite"
                    + "?connectTimeout=5&sslmode=verify-full&sslrootcert=/etc/suite/postgres-ca/root.pem");
            // R2DBC's option is case-sensitive (sslRootCert): it comes as JSON, not as a lower-cased variable
            Map<String, Object> json = new Yaml().load(value(env, "SPRING_APPLICATION_JSON"));
            Map<String, Object> r2dbc = Map.of("properties", Map.of("sslRootCert", "/etc/suite/postgres-ca/root.pem"));
            if (service.equals("auth-service")) {
                // its JDBC pool (HikariCP) verifies the server with the same CA: pgjdbc's sslrootcert as a
                // driver property (with sslmode from its URL, verify-full would look for ~/.postgresql/root.crt)
                assertThat(json).as(service).containsEntry("spring", Map.of("r2dbc", r2dbc,
                        "datasource", Map.of("hikari", Map.of("data-source-properties",
                                Map.of("sslrootcert", "/etc/suite/postgres-ca/root.pem")))));
            } else {
                assertThat(json).as(service).containsEntry("spring", Map.of("r2dbc", r2dbc));
            }
            if (service.equals("mcp-service")) {
                // mcp-service calls the services too: one JSON with their locations and the CA
                assertThat(Node.map(json, "suite.services")).as(service).containsEntry("actions-service",
                        "http://" + RELEASE + "-actions-service:8080");
            } else {
                assertThat(json).as(service).containsOnlyKeys("spring");
            }
            assertThat(Node.maps(rendered.container(service), "volumeMounts")).as(service)
                    .contains(Map.of("name", "postgres-ca", "mountPath", "/etc/suite/postgres-ca", "readOnly", true));
            assertThat(volume(rendered, service, "postgres-ca")).as(service).isEqualTo(Map.of("name", "postgres-ca",
                    "secret", Map.of("secretName", "postgres-ca", "defaultMode", 0444,
                            "items", List.of(Map.of("key", "root.pem", "path", "root.pem")))));
        }
    }

    @Test
    void postgresRequireEncryptsWithoutACa() {
        Manifests rendered = SuiteChart.render("""
                postgres:
                  sslMode: require
                """);

        assertThat(Node.map(rendered.get("ConfigMap", RELEASE), "data")).containsEntry("SUITE_DB_SSL_MODE", "require");
        assertThat(rendered.env("actions-service")).doesNotContainKeys("SPRING_FLYWAY_URL", "SPRING_APPLICATION_JSON");
        assertThat(volumeNames(rendered, "actions-service")).containsExactly("tmp");
    }

    @Test
    void verifyingTheServerWithoutACaIsRefused() {
        assertThatThrownBy(() -> SuiteChart.render("""
                postgres:
                  sslMode: verify-ca
                """))
                .hasMessageContaining("postgres.sslMode verify-ca needs postgres.tls.caSecret.name");
    }

    @Test
    void redisSettingsAndItsPasswordReachTheGatewayOnly() {
        Manifests rendered = SuiteChart.render(REDIS);

        List<Map<String, Object>> gatewayEnv = Node.maps(rendered.container("gateway"), "env");
        Map<String, Map<String, Object>> env = rendered.env("gateway");
        assertThat(value(env, "SUITE_RATE_LIMIT_STORE")).isEqualTo("redis");
        assertThat(value(env, "SPRING_DATA_REDIS_HOST")).isEqualTo("redis.cache.svc");
        assertThat(value(env, "SPRING_DATA_REDIS_PORT")).isEqualTo("6380");
        assertThat(value(env, "SPRING_DATA_REDIS_DATABASE")).isEqualTo("2");
        assertThat(value(env, "SPRING_DATA_REDIS_SSL_ENABLED")).isEqualTo("true");
        assertThat(value(env, "SPRING_DATA_REDIS_USERNAME")).isEqualTo("suite-gateway");
        assertThat(env.get("SPRING_DATA_REDIS_PASSWORD")).isEqualTo(Map.of("name", "SPRING_DATA_REDIS_PASSWORD",
                "valueFrom", Map.of("secretKeyRef", Map.of("name", "redis-auth", "key", "redis-password"))));
        // with a URL, Spring Boot would take the password from the URL and ignore SPRING_DATA_REDIS_PASSWORD
        assertThat(env).doesNotContainKey("SPRING_DATA_REDIS_URL");
        // one replica (defaults.replicaCount): it admits the whole limit while Redis is down
        assertThat(value(env, "SUITE_RATE_LIMIT_REPLICAS")).isEqualTo("1");
        assertNoSecretInPlainValues(gatewayEnv, "gateway");
        for (String service : SERVICES) {
            if (!service.equals("gateway")) {
                assertThat(rendered.env(service).keySet()).as(service)
                        .noneMatch(name -> name.startsWith("SPRING_DATA_REDIS_") || name.startsWith("SUITE_RATE_LIMIT_"));
            }
        }
    }

    @Test
    void plainRedisWithoutPortOrDatabaseGetsTheDefaults() {
        Manifests rendered = SuiteChart.render("""
                rateLimit:
                  store: redis
                  redis:
                    url: redis://redis
                """);

        Map<String, Map<String, Object>> env = rendered.env("gateway");
        assertThat(value(env, "SPRING_DATA_REDIS_HOST")).isEqualTo("redis");
        assertThat(value(env, "SPRING_DATA_REDIS_PORT")).isEqualTo("6379");
        assertThat(value(env, "SPRING_DATA_REDIS_DATABASE")).isEqualTo("0");
        assertThat(value(env, "SPRING_DATA_REDIS_SSL_ENABLED")).isEqualTo("false");
        assertThat(env).doesNotContainKeys("SPRING_DATA_REDIS_PASSWORD", "SPRING_DATA_REDIS_USERNAME");
    }

    @Test
    void theFallbackDividesByTheLargestNumberOfGatewayReplicasThatMayRun() {
        String autoscaled = """
                services:
                  gateway:
                    replicaCount: 2
                    autoscaling:
                      enabled: true
                      minReplicas: 2
                      maxReplicas: 8
                """;
        String fixed = """
                services:
                  gateway:
                    replicaCount: 3
                """;

        // issue 22: each replica admits limit / replicas while Redis is down; the autoscaler's ceiling keeps
        // the sum within the limit however many replicas run
        assertThat(value(SuiteChart.render(REDIS, autoscaled).env("gateway"), "SUITE_RATE_LIMIT_REPLICAS")).isEqualTo("8");
        assertThat(value(SuiteChart.render(REDIS, fixed).env("gateway"), "SUITE_RATE_LIMIT_REPLICAS")).isEqualTo("3");
        assertThat(value(SuiteChart.render(REDIS, fixed, """
                rateLimit:
                  replicas: 4
                """).env("gateway"), "SUITE_RATE_LIMIT_REPLICAS")).isEqualTo("4");
    }

    @Test
    void redisStoreWithoutAUrlIsRefused() {
        assertThatThrownBy(() -> SuiteChart.render("""
                rateLimit:
                  store: redis
                """))
                .hasMessageContaining("rateLimit.store redis needs rateLimit.redis.url");
    }

    /** Secrets only through secretKeyRef; a plain value may at most refer to a secret variable as $(NAME). */
    private static void assertNoSecretInPlainValues(List<Map<String, Object>> env, String service) {
        for (Map<String, Object> entry : env) {
            String name = (String) entry.get("name");
            if (name.matches(".*(SECRET|PASSWORD|KEY).*")) {
                assertThat(entry).as(service + " " + name).doesNotContainKey("value").containsKey("valueFrom");
            }
            Object value = entry.get("value");
            if (value instanceof String text && text.contains("password=")) {
                assertThat(text).as(service + " " + name).contains("password=\"$(KAFKA_SASL_PASSWORD)\"");
            }
        }
    }

    private static String value(Map<String, Map<String, Object>> env, String name) {
        assertThat(env).containsKey(name);
        return Node.string(env.get(name), "value");
    }

    private static Map<String, Object> configMapRef(String variable) {
        return Map.of("name", variable, "valueFrom", Map.of("configMapKeyRef", Map.of("name", RELEASE, "key", variable)));
    }

    private static List<String> volumeNames(Manifests rendered, String service) {
        List<String> names = new ArrayList<>();
        for (Map<String, Object> volume : Node.maps(rendered.ofService("Deployment", service), "spec.template.spec.volumes")) {
            names.add((String) volume.get("name"));
        }
        return names;
    }

    private static Map<String, Object> volume(Manifests rendered, String service, String name) {
        return Node.maps(rendered.ofService("Deployment", service), "spec.template.spec.volumes").stream()
                .filter(volume -> name.equals(volume.get("name")))
                .findFirst()
                .orElseThrow(() -> new AssertionError(service + " has no volume " + name));
    }
}
