package dev.visibility.helm;

import java.util.List;
import java.util.Map;

import dev.visibility.helm.SuiteChart.Manifests;
import dev.visibility.helm.SuiteChart.Node;
import org.junit.jupiter.api.Test;

import static dev.visibility.helm.SuiteChart.RELEASE;
import static org.assertj.core.api.Assertions.assertThat;

/** Replicas, HorizontalPodAutoscalers and PodDisruptionBudgets, per service. */
class ScalingTest {

    @Test
    void autoscaledServiceGetsAnHpaAndADisruptionBudgetAndNoFixedReplicas() {
        Manifests rendered = SuiteChart.render("""
                services:
                  gateway:
                    autoscaling:
                      enabled: true
                      minReplicas: 2
                      maxReplicas: 6
                """);

        assertThat(rendered.names("HorizontalPodAutoscaler")).containsExactly(RELEASE + "-gateway");
        Map<String, Object> hpa = rendered.ofService("HorizontalPodAutoscaler", "gateway");
        assertThat(hpa.get("apiVersion")).isEqualTo("autoscaling/v2");
        assertThat(Node.map(hpa, "spec.scaleTargetRef"))
                .isEqualTo(Map.of("apiVersion", "apps/v1", "kind", "Deployment", "name", RELEASE + "-gateway"));
        assertThat(Node.at(hpa, "spec.minReplicas")).isEqualTo(2);
        assertThat(Node.at(hpa, "spec.maxReplicas")).isEqualTo(6);
        assertThat(Node.maps(hpa, "spec.metrics")).containsExactly(Map.of("type", "Resource", "resource",
                Map.of("name", "cpu", "target", Map.of("type", "Utilization", "averageUtilization", 75))));
        // the HPA owns the replica count
        assertThat(Node.map(rendered.ofService("Deployment", "gateway"), "spec")).doesNotContainKey("replicas");
        assertThat(rendered.names("PodDisruptionBudget")).containsExactly(RELEASE + "-gateway");
    }

    @Test
    void serviceWithSeveralReplicasGetsADisruptionBudgetOverItsOwnPods() {
        Manifests rendered = SuiteChart.render("""
                services:
                  auth-service:
                    replicaCount: 3
                  actions-service:
                    podDisruptionBudget:
                      enabled: true
                      minAvailable: 1
                """);

        assertThat(Node.at(rendered.ofService("Deployment", "auth-service"), "spec.replicas")).isEqualTo(3);
        assertThat(rendered.names("PodDisruptionBudget"))
                .containsExactlyInAnyOrder(RELEASE + "-auth-service", RELEASE + "-actions-service");
        Map<String, Object> auth = rendered.ofService("PodDisruptionBudget", "auth-service");
        assertThat(auth.get("apiVersion")).isEqualTo("policy/v1");
        assertThat(Node.map(auth, "spec")).containsEntry("maxUnavailable", 1).doesNotContainKey("minAvailable");
        assertThat(Node.map(auth, "spec.selector.matchLabels"))
                .isEqualTo(Node.map(rendered.ofService("Deployment", "auth-service"), "spec.selector.matchLabels"));
        assertThat(Node.map(rendered.ofService("PodDisruptionBudget", "actions-service"), "spec"))
                .containsEntry("minAvailable", 1).doesNotContainKey("maxUnavailable");
    }

    @Test
    void autoscalingForEveryServiceCanBeSwitchedOffForOne() {
        Manifests rendered = SuiteChart.render("""
                defaults:
                  autoscaling:
                    enabled: true
                    targetMemoryUtilizationPercentage: 80
                services:
                  mcp-service:
                    autoscaling:
                      enabled: false
                """);

        assertThat(rendered.names("HorizontalPodAutoscaler")).hasSize(8).doesNotContain(RELEASE + "-mcp-service");
        assertThat(Node.at(rendered.ofService("Deployment", "mcp-service"), "spec.replicas")).isEqualTo(1);
        assertThat(Node.maps(rendered.ofService("HorizontalPodAutoscaler", "traffic-service"), "spec.metrics"))
                .extracting(metric -> Node.string(metric, "resource.name"))
                .isEqualTo(List.of("cpu", "memory"));
    }

    @Test
    void schedulingSettingsReachThePodOfThatServiceOnly() {
        Manifests rendered = SuiteChart.render("""
                services:
                  agents-service:
                    nodeSelector:
                      workload: batch
                    tolerations:
                      - key: batch
                        operator: Exists
                        effect: NoSchedule
                    affinity:
                      nodeAffinity:
                        requiredDuringSchedulingIgnoredDuringExecution:
                          nodeSelectorTerms:
                            - matchExpressions:
                                - key: kubernetes.io/arch
                                  operator: In
                                  values: [amd64]
                """);

        Map<String, Object> agents = Node.map(rendered.ofService("Deployment", "agents-service"), "spec.template.spec");
        assertThat(agents.get("nodeSelector")).isEqualTo(Map.of("workload", "batch"));
        assertThat(Node.maps(agents, "tolerations"))
                .containsExactly(Map.of("key", "batch", "operator", "Exists", "effect", "NoSchedule"));
        assertThat(Node.string(agents, "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
                + ".nodeSelectorTerms.0.matchExpressions.0.key")).isEqualTo("kubernetes.io/arch");
        Map<String, Object> auth = Node.map(rendered.ofService("Deployment", "auth-service"), "spec.template.spec");
        assertThat(auth).doesNotContainKeys("nodeSelector", "tolerations", "affinity");
    }
}
