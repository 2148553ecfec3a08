package dev.visibility.helm;

import java.util.List;
import java.util.Map;

import dev.visibility.helm.SuiteChart.Manifests;
import dev.visibility.helm.SuiteChart.Node;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import static dev.visibility.helm.SuiteChart.RELEASE;
import static dev.visibility.helm.SuiteChart.SERVICES;
import static org.assertj.core.api.Assertions.assertThat;

/** The Deployments and Services the chart renders with nothing but the required values. */
class WorkloadsTest {

    static Manifests manifests;

    @BeforeAll
    static void render() {
        manifests = SuiteChart.render();
    }

    @Test
    void everyServiceGetsOneDeploymentAndOneService() {
        List<String> expected = SERVICES.stream().map(service -> RELEASE + "-" + service).toList();

        assertThat(manifests.names("Deployment")).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(manifests.names("Service")).containsExactlyInAnyOrderElementsOf(expected);
    }

    @ParameterizedTest
    @FieldSource("dev.visibility.helm.SuiteChart#SERVICES")
    void selectorLabelsAreNameAndInstanceOnlyAndTheServiceSelectsTheSamePods(String service) {
        Map<String, Object> deployment = manifests.ofService("Deployment", service);
        Map<String, Object> selector = Node.map(deployment, "spec.selector.matchLabels");

        assertThat(selector).containsOnly(
                Map.entry("app.kubernetes.io/name", service),
                Map.entry("app.kubernetes.io/instance", RELEASE));
        assertThat(Node.map(manifests.ofService("Service", service), "spec.selector")).isEqualTo(selector);
        assertThat(Node.map(deployment, "spec.template.metadata.labels"))
                .containsAllEntriesOf(selector)
                .containsEntry("app.kubernetes.io/part-of", "suite")
                .containsEntry("app.kubernetes.io/managed-by", "Helm")
                .containsEntry("app.kubernetes.io/version", "0.1.0")
                .containsEntry("helm.sh/chart", "suite-0.2.0");
    }

    @ParameterizedTest
    @FieldSource("dev.visibility.helm.SuiteChart#SERVICES")
    void imageIsRegistrySlashServiceColonAppVersion(String service) {
        assertThat(manifests.container(service).get("image"))
                .isEqualTo("registry.example.com/suite/" + service + ":0.1.0");
    }

    @ParameterizedTest
    @FieldSource("dev.visibility.helm.SuiteChart#SERVICES")
    void containerServesHttpOn8080BehindAServiceOn8080AndActuatorOnTheManagementPort(String service) {
        assertThat(Node.maps(manifests.container(service), "ports")).containsExactly(
                Map.of("name", "http", "containerPort", 8080, "protocol", "TCP"),
                Map.of("name", "management", "containerPort", 9090, "protocol", "TCP"));
        assertThat(Node.string(manifests.env(service).get("SERVER_PORT"), "value")).isEqualTo("8080");
        // DESIGN.md "Operations": Actuator on its own port (management.server.port), not through the gateway
        assertThat(Node.string(manifests.env(service).get("MANAGEMENT_SERVER_PORT"), "value")).isEqualTo("9090");
        // without a ServiceMonitor nothing needs the management port on the Service
        assertThat(Node.maps(manifests.ofService("Service", service), "spec.ports"))
                .containsExactly(Map.of("name", "http", "port", 8080, "targetPort", "http", "protocol", "TCP"));
        assertThat(Node.string(manifests.ofService("Service", service), "spec.type")).isEqualTo("ClusterIP");
    }

    @ParameterizedTest
    @FieldSource("dev.visibility.helm.SuiteChart#SERVICES")
    void containerRunsWithTheRestrictedSecurityContext(String service) {
        Map<String, Object> pod = Node.map(manifests.ofService("Deployment", service), "spec.template.spec");
        Map<String, Object> container = manifests.container(service);

        assertThat(Node.at(pod, "securityContext.runAsNonRoot")).isEqualTo(true);
        assertThat(Node.at(pod, "securityContext.seccompProfile.type")).isEqualTo("RuntimeDefault");
        assertThat(Node.at(container, "securityContext.runAsNonRoot")).isEqualTo(true);
        assertThat(Node.at(container, "securityContext.readOnlyRootFilesystem")).isEqualTo(true);
        assertThat(Node.at(container, "securityContext.allowPrivilegeEscalation")).isEqualTo(false);
        assertThat(Node.at(container, "securityContext.privileged")).isEqualTo(false);
        assertThat(Node.at(container, "securityContext.capabilities.drop")).isEqualTo(List.of("ALL"));
        assertThat(Node.at(container, "securityContext.capabilities.add")).isNull();
        assertThat(Node.at(container, "securityContext.seccompProfile.type")).isEqualTo("RuntimeDefault");
        // a read-only root file system needs a writable /tmp (JVM perf data, Netty native libraries)
        assertThat(Node.maps(container, "volumeMounts")).contains(Map.of("name", "tmp", "mountPath", "/tmp"));
        assertThat(Node.maps(pod, "volumes")).anySatisfy(volume -> {
            assertThat(volume.get("name")).isEqualTo("tmp");
            assertThat(volume).containsKey("emptyDir");
        });
        // the services never call the Kubernetes API
        assertThat(pod.get("automountServiceAccountToken")).isEqualTo(false);
        assertThat(pod.get("serviceAccountName")).isEqualTo(RELEASE);
        // service links would put <RELEASE>_*_SERVICE_* variables, readable as suite.* properties, into the environment
        assertThat(pod.get("enableServiceLinks")).isEqualTo(false);
    }

    @ParameterizedTest
    @FieldSource("dev.visibility.helm.SuiteChart#SERVICES")
    void probesAskActuatorsHealthGroupsOnTheManagementPort(String service) {
        Map<String, Object> container = manifests.container(service);

        assertThat(Node.string(container, "livenessProbe.httpGet.path")).isEqualTo("/actuator/health/liveness");
        assertThat(Node.string(container, "readinessProbe.httpGet.path")).isEqualTo("/actuator/health/readiness");
        assertThat(Node.string(container, "startupProbe.httpGet.path")).isEqualTo("/actuator/health/liveness");
        for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
            // the service port serves no /actuator: the probes go to the management port
            assertThat(Node.string(container, probe + ".httpGet.port")).as(probe).isEqualTo("management");
        }
        // the start-up probe, not an initial delay, covers Flyway and the Kafka clients at start-up
        int periodSeconds = (Integer) Node.at(container, "startupProbe.periodSeconds");
        int failureThreshold = (Integer) Node.at(container, "startupProbe.failureThreshold");
        assertThat(periodSeconds * failureThreshold).isGreaterThanOrEqualTo(120);
    }

    @ParameterizedTest
    @FieldSource("dev.visibility.helm.SuiteChart#SERVICES")
    void resourcesAreSizedForSpringBootAndTheHeapFollowsTheLimit(String service) {
        Map<String, Object> container = manifests.container(service);

        assertThat(Node.map(container, "resources")).isEqualTo(Map.of(
                "requests", Map.of("cpu", "250m", "memory", "384Mi"),
                "limits", Map.of("memory", "768Mi")));
        assertThat(Node.string(manifests.env(service).get("JAVA_TOOL_OPTIONS"), "value"))
                .contains("-XX:MaxRAMPercentage=75.0", "-XX:+ExitOnOutOfMemoryError");
    }

    @ParameterizedTest
    @FieldSource("dev.visibility.helm.SuiteChart#SERVICES")
    void shutdownPausesForEndpointRemovalWithinTheGracePeriod(String service) {
        Map<String, Object> pod = Node.map(manifests.ofService("Deployment", service), "spec.template.spec");

        assertThat(Node.at(manifests.container(service), "lifecycle.preStop.exec.command"))
                .isEqualTo(List.of("sleep", "10"));
        // 10 s of preStop plus Spring's 10 s graceful shutdown (platform-defaults.properties)
        assertThat(pod.get("terminationGracePeriodSeconds")).isEqualTo(30);
    }

    @ParameterizedTest
    @FieldSource("dev.visibility.helm.SuiteChart#SERVICES")
    void podsCarryConfigAndSecretChecksums(String service) {
        Map<String, Object> annotations = Node.map(manifests.ofService("Deployment", service),
                "spec.template.metadata.annotations");

        assertThat((String) annotations.get("checksum/config")).matches("[0-9a-f]{64}");
        assertThat((String) annotations.get("checksum/secret")).matches("[0-9a-f]{64}");
    }

    @Test
    void aConfigChangeRollsThePodsAndASecretChangeToo() {
        Map<String, Object> before = checksums(manifests);
        Map<String, Object> otherKafka = checksums(SuiteChart.render("""
                kafka:
                  bootstrapServers: kafka.other:9092
                """));
        Map<String, Object> otherSecret = checksums(SuiteChart.render("""
                secrets:
                  cursorSecret: another-cursor-secret-of-at-least-32-chars
                """));

        assertThat(otherKafka.get("checksum/config")).isNotEqualTo(before.get("checksum/config"));
        assertThat(otherKafka.get("checksum/secret")).isEqualTo(before.get("checksum/secret"));
        assertThat(otherSecret.get("checksum/secret")).isNotEqualTo(before.get("checksum/secret"));
        assertThat(otherSecret.get("checksum/config")).isEqualTo(before.get("checksum/config"));
    }

    @Test
    void defaultsKeepOneReplicaWithoutAutoscalerOrDisruptionBudget() {
        for (String service : SERVICES) {
            assertThat(Node.at(manifests.ofService("Deployment", service), "spec.replicas")).as(service).isEqualTo(1);
        }
        assertThat(manifests.ofKind("HorizontalPodAutoscaler")).isEmpty();
        // a budget over a single replica would block every node drain
        assertThat(manifests.ofKind("PodDisruptionBudget")).isEmpty();
        assertThat(manifests.ofKind("Ingress")).isEmpty();
    }

    @Test
    void serviceAccountDoesNotMountAnApiToken() {
        Map<String, Object> account = manifests.get("ServiceAccount", RELEASE);

        assertThat(account.get("automountServiceAccountToken")).isEqualTo(false);
    }

    private static Map<String, Object> checksums(Manifests rendered) {
        return Node.map(rendered.ofService("Deployment", "auth-service"), "spec.template.metadata.annotations");
    }
}
