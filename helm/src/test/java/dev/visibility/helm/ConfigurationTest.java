package dev.visibility.helm;

import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.visibility.helm.SuiteChart.Manifests;
import dev.visibility.helm.SuiteChart.Node;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.yaml.snakeyaml.Yaml;

import static dev.visibility.helm.SuiteChart.RELEASE;
import static dev.visibility.helm.SuiteChart.SERVICES;
import static org.assertj.core.api.Assertions.assertThat;

/** What each service reads from its environment, and where the chart takes it from. */
class ConfigurationTest {

    static Manifests manifests;

    @BeforeAll
    static void render() {
        manifests = SuiteChart.render();
    }

    @Test
    void configMapHoldsTheExternalKafkaAndPostgresEndpoints() {
        Map<String, Object> data = Node.map(manifests.get("ConfigMap", RELEASE), "data");

        assertThat(data)
                .containsEntry("SPRING_KAFKA_BOOTSTRAP_SERVERS", "kafka-0.kafka:9092,kafka-1.kafka:9092")
                .containsEntry("SUITE_DB_HOST", "postgres.databases.svc")
                .containsEntry("SUITE_DB_PORT", "5432")
                .containsEntry("SUITE_DB_NAME", "suite")
                .containsEntry("SUITE_DB_USERNAME", "suite");
    }

    @ParameterizedTest
    @FieldSource("dev.visibility.helm.SuiteChart#SERVICES")
    void everyServiceReadsKafkaTheTokenAndCursorSecretsAndItsProfile(String service) {
        Map<String, Map<String, Object>> env = manifests.env(service);

        assertThat(env.get("SPRING_KAFKA_BOOTSTRAP_SERVERS")).isEqualTo(configMapRef("SPRING_KAFKA_BOOTSTRAP_SERVERS"));
        assertThat(env.get("SUITE_INTERNAL_TOKEN_PUBLIC_KEY")).isEqualTo(secretRef(RELEASE, "SUITE_INTERNAL_TOKEN_PUBLIC_KEY"));
        // only the gateway signs internal tokens (issue 15): no other service holds the private key
        if (service.equals("gateway")) {
            assertThat(env.get("SUITE_INTERNAL_TOKEN_PRIVATE_KEY")).isEqualTo(secretRef(RELEASE, "SUITE_INTERNAL_TOKEN_PRIVATE_KEY"));
        } else {
            assertThat(env).doesNotContainKey("SUITE_INTERNAL_TOKEN_PRIVATE_KEY");
        }
        assertThat(env.get("SUITE_CURSOR_SECRET")).isEqualTo(secretRef(RELEASE, "SUITE_CURSOR_SECRET"));
        assertThat(Node.string(env.get("SPRING_PROFILES_ACTIVE"), "value")).isEqualTo("kubernetes");
        // no secret ever sits in a plain value
        assertThat(env.values()).allSatisfy(entry -> {
            if (((String) entry.get("name")).matches(".*(SECRET|PASSWORD|KEY).*")) {
                assertThat(entry).doesNotContainKey("value").containsKey("valueFrom");
            }
        });
    }

    @Test
    void everyServiceButTheGatewayReadsThePostgresSettings() {
        for (String service : SERVICES) {
            Map<String, Map<String, Object>> env = manifests.env(service);
            if (service.equals("gateway")) {
                // the gateway keeps no database: its pom excludes R2DBC and Flyway
                assertThat(env).as(service).doesNotContainKeys("SUITE_DB_HOST", "SUITE_DB_PASSWORD");
                continue;
            }
            for (String name : List.of("SUITE_DB_HOST", "SUITE_DB_PORT", "SUITE_DB_NAME", "SUITE_DB_USERNAME")) {
                assertThat(env.get(name)).as(service + " " + name).isEqualTo(configMapRef(name));
            }
            assertThat(env.get("SUITE_DB_PASSWORD")).as(service).isEqualTo(secretRef(RELEASE, "SUITE_DB_PASSWORD"));
        }
    }

    @Test
    void onlyWebhookServiceReadsTheWebhookEncryptionKey() {
        for (String service : SERVICES) {
            Map<String, Map<String, Object>> env = manifests.env(service);
            if (service.equals("webhook-service")) {
                assertThat(env.get("SUITE_WEBHOOK_SECRET_KEY")).isEqualTo(secretRef(RELEASE, "SUITE_WEBHOOK_SECRET_KEY"));
            } else {
                assertThat(env).as(service).doesNotContainKey("SUITE_WEBHOOK_SECRET_KEY");
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void gatewayAndMcpServiceFindEveryOtherServiceThroughSpringApplicationJson() {
        // the gateway routes to every service; mcp-service's tools read the services' REST endpoints
        for (String caller : List.of("gateway", "mcp-service")) {
            assertThat(manifests.env(caller).get("SPRING_APPLICATION_JSON")).as(caller)
                    .isEqualTo(configMapRef("SPRING_APPLICATION_JSON", "gateway-application.json"));
        }

        String json = (String) Node.map(manifests.get("ConfigMap", RELEASE), "data").get("gateway-application.json");
        Map<String, Object> document = new Yaml().load(json);
        Map<String, String> locations = (Map<String, String>) Node.at(document, "suite.services");

        Map<String, String> expected = new LinkedHashMap<>();
        SERVICES.stream().filter(service -> !service.equals("gateway"))
                .forEach(service -> expected.put(service, "http://" + RELEASE + "-" + service + ":8080"));
        assertThat(locations).isEqualTo(expected);
        for (String service : SERVICES) {
            if (!service.equals("gateway") && !service.equals("mcp-service")) {
                assertThat(manifests.env(service)).as(service).doesNotContainKey("SPRING_APPLICATION_JSON");
            }
        }
    }

    @Test
    void secretHoldsTheValuesGivenAndNothingElse() {
        Map<String, Object> secret = manifests.get("Secret", RELEASE);
        Map<String, Object> data = Node.map(secret, "data");

        assertThat(data).containsOnlyKeys("SUITE_DB_PASSWORD", "SUITE_INTERNAL_TOKEN_PRIVATE_KEY", "SUITE_INTERNAL_TOKEN_PUBLIC_KEY",
                "SUITE_CURSOR_SECRET", "SUITE_WEBHOOK_SECRET_KEY");
        assertThat(decode(data.get("SUITE_DB_PASSWORD"))).isEqualTo("change-me-postgres");
        assertThat(decode(data.get("SUITE_INTERNAL_TOKEN_PRIVATE_KEY"))).isEqualTo("test-private-key-placeholder");
        assertThat(decode(data.get("SUITE_INTERNAL_TOKEN_PUBLIC_KEY"))).isEqualTo("test-public-key-placeholder");
        assertThat(decode(data.get("SUITE_WEBHOOK_SECRET_KEY")))
                .isEqualTo("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=");
    }

    @Test
    void existingSecretReplacesTheChartsSecret() {
        Manifests rendered = SuiteChart.render("""
                secrets:
                  existingSecret: suite-managed
                  internalTokenPrivateKey: ""
                  internalTokenPublicKey: ""
                  cursorSecret: ""
                  webhookSecretKey: ""
                postgres:
                  password: ""
                """);

        assertThat(rendered.ofKind("Secret")).isEmpty();
        assertThat(rendered.env("webhook-service").get("SUITE_WEBHOOK_SECRET_KEY"))
                .isEqualTo(secretRef("suite-managed", "SUITE_WEBHOOK_SECRET_KEY"));
        assertThat(rendered.env("auth-service").get("SUITE_DB_PASSWORD"))
                .isEqualTo(secretRef("suite-managed", "SUITE_DB_PASSWORD"));
        assertThat(rendered.env("gateway").get("SUITE_INTERNAL_TOKEN_PRIVATE_KEY"))
                .isEqualTo(secretRef("suite-managed", "SUITE_INTERNAL_TOKEN_PRIVATE_KEY"));
        assertThat(rendered.env("visibility-service").get("SUITE_INTERNAL_TOKEN_PUBLIC_KEY"))
                .isEqualTo(secretRef("suite-managed", "SUITE_INTERNAL_TOKEN_PUBLIC_KEY"));
        assertThat((String) Node.at(rendered.ofService("Deployment", "gateway"),
                "spec.template.metadata.annotations.checksum/secret")).matches("[0-9a-f]{64}");
    }

    @Test
    void databasePasswordCanComeFromTheOperatorsSecret() {
        Manifests rendered = SuiteChart.render("""
                postgres:
                  password: ""
                  passwordSecret:
                    name: suite-pg-app
                    key: password
                """);

        assertThat(rendered.env("outcomes-service").get("SUITE_DB_PASSWORD"))
                .isEqualTo(secretRef("SUITE_DB_PASSWORD", "suite-pg-app", "password"));
        assertThat(Node.map(rendered.get("Secret", RELEASE), "data")).doesNotContainKey("SUITE_DB_PASSWORD");
    }

    @Test
    void extraEnvironmentComesLastSoItWinsAndPerServiceSettingsOverrideTheDefaults() {
        Manifests rendered = SuiteChart.render("""
                defaults:
                  env:
                    - name: SUITE_OUTBOX_ENABLED
                      value: "true"
                kafka:
                  createTopics: false
                services:
                  traffic-service:
                    springProfilesActive: kubernetes,eu
                    env:
                      - name: SPRING_KAFKA_PROPERTIES_SECURITY_PROTOCOL
                        value: SASL_SSL
                    resources:
                      limits:
                        memory: 1Gi
                    image:
                      tag: 0.2.0
                """);

        List<Map<String, Object>> trafficEnv = Node.maps(rendered.container("traffic-service"), "env");
        assertThat(trafficEnv.get(trafficEnv.size() - 1))
                .isEqualTo(Map.of("name", "SPRING_KAFKA_PROPERTIES_SECURITY_PROTOCOL", "value", "SASL_SSL"));
        assertThat(Node.string(rendered.env("traffic-service").get("SPRING_PROFILES_ACTIVE"), "value"))
                .isEqualTo("kubernetes,eu");
        // maps merge with the defaults: the request survives, the limit is replaced
        assertThat(Node.map(rendered.container("traffic-service"), "resources")).isEqualTo(Map.of(
                "requests", Map.of("cpu", "250m", "memory", "384Mi"),
                "limits", Map.of("memory", "1Gi")));
        assertThat(rendered.container("traffic-service").get("image"))
                .isEqualTo("registry.example.com/suite/traffic-service:0.2.0");
        assertThat(Node.string(rendered.env("actions-service").get("SUITE_OUTBOX_ENABLED"), "value")).isEqualTo("true");
        assertThat(Node.string(rendered.env("actions-service").get("SUITE_KAFKA_CREATE_TOPICS"), "value"))
                .isEqualTo("false");
        assertThat(rendered.env("gateway")).doesNotContainKey("SUITE_KAFKA_CREATE_TOPICS");
    }

    /** An environment entry read from the chart's ConfigMap under a key of the same name. */
    private static Map<String, Object> configMapRef(String variable) {
        return configMapRef(variable, variable);
    }

    private static Map<String, Object> configMapRef(String variable, String key) {
        return Map.of("name", variable, "valueFrom", Map.of("configMapKeyRef", Map.of("name", RELEASE, "key", key)));
    }

    /** An environment entry read from {@code secret} under a key of the same name. */
    private static Map<String, Object> secretRef(String secret, String variable) {
        return secretRef(variable, secret, variable);
    }

    private static Map<String, Object> secretRef(String variable, String secret, String key) {
        return Map.of("name", variable, "valueFrom", Map.of("secretKeyRef", Map.of("name", secret, "key", key)));
    }

    private static String decode(Object base64) {
        return new String(Base64.getDecoder().decode((String) base64));
    }
}
