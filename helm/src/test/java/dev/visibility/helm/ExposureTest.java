package dev.visibility.helm;

import java.util.List;
import java.util.Map;

import dev.visibility.helm.SuiteChart.Manifests;
import dev.visibility.helm.SuiteChart.Node;
import org.junit.jupiter.api.Test;

import static dev.visibility.helm.SuiteChart.RELEASE;
import static dev.visibility.helm.SuiteChart.SERVICES;
import static org.assertj.core.api.Assertions.assertThat;

/** Only the gateway is reachable from outside (DESIGN.md, "Deployment"). */
class ExposureTest {

    static final String INGRESS = """
            ingress:
              enabled: true
              className: nginx
              annotations:
                nginx.ingress.kubernetes.io/proxy-body-size: 2m
              hosts:
                - host: api.example.com
                  paths:
                    - path: /
                      pathType: Prefix
              tls:
                - secretName: api-example-com-tls
                  hosts:
                    - api.example.com
            """;

    @Test
    void onlyTheGatewayHasAnIngress() {
        Manifests rendered = SuiteChart.render(INGRESS);

        assertThat(rendered.names("Ingress")).containsExactly(RELEASE + "-gateway");
        Map<String, Object> ingress = rendered.ofService("Ingress", "gateway");
        assertThat(Node.string(ingress, "spec.ingressClassName")).isEqualTo("nginx");
        assertThat(Node.map(ingress, "metadata.annotations"))
                .containsEntry("nginx.ingress.kubernetes.io/proxy-body-size", "2m");
        assertThat(Node.maps(ingress, "spec.tls"))
                .containsExactly(Map.of("secretName", "api-example-com-tls", "hosts", List.of("api.example.com")));
        assertThat(Node.string(ingress, "spec.rules.0.host")).isEqualTo("api.example.com");
        Map<String, Object> path = Node.map(ingress, "spec.rules.0.http.paths.0");
        assertThat(path).containsEntry("path", "/").containsEntry("pathType", "Prefix");
        assertThat(Node.at(path, "backend.service"))
                .isEqualTo(Map.of("name", RELEASE + "-gateway", "port", Map.of("name", "http")));
    }

    @Test
    void noIngressWhenTheGatewayIsDisabled() {
        Manifests rendered = SuiteChart.render(INGRESS, """
                services:
                  gateway:
                    enabled: false
                """);

        assertThat(rendered.ofKind("Ingress")).isEmpty();
    }

    @Test
    void networkPolicyAdmitsTrafficFromOutsideTheReleaseOnlyToTheGateway() {
        Manifests rendered = SuiteChart.render();
        Map<String, Object> releasePods = Map.of(
                "app.kubernetes.io/instance", RELEASE,
                "app.kubernetes.io/part-of", "suite");

        assertThat(rendered.names("NetworkPolicy")).hasSize(SERVICES.size());
        for (String service : SERVICES) {
            Map<String, Object> policy = rendered.ofService("NetworkPolicy", service);
            assertThat(Node.map(policy, "spec.podSelector.matchLabels")).as(service).isEqualTo(
                    Map.of("app.kubernetes.io/name", service, "app.kubernetes.io/instance", RELEASE));
            // egress stays open unless networkPolicy.egress is given
            assertThat(Node.at(policy, "spec.policyTypes")).as(service).isEqualTo(List.of("Ingress"));
            List<Map<String, Object>> rules = Node.maps(policy, "spec.ingress");
            assertThat(rules).as(service).hasSize(1);
            assertThat(rules.get(0).get("ports")).as(service).isEqualTo(List.of(Map.of("port", "http", "protocol", "TCP")));
            if (service.equals("gateway")) {
                // a rule without "from" admits every source
                assertThat(rules.get(0)).as(service).doesNotContainKey("from");
            } else {
                assertThat(rules.get(0).get("from")).as(service)
                        .isEqualTo(List.of(Map.of("podSelector", Map.of("matchLabels", releasePods))));
            }
            // and the release's own pods do carry the labels the policies admit
            assertThat(Node.map(rendered.ofService("Deployment", service), "spec.template.metadata.labels"))
                    .as(service).containsAllEntriesOf(releasePods);
        }
    }

    @Test
    void gatewaySourcesAndEgressRulesComeFromValues() {
        Manifests rendered = SuiteChart.render("""
                networkPolicy:
                  gatewayFrom:
                    - namespaceSelector:
                        matchLabels:
                          kubernetes.io/metadata.name: ingress-nginx
                  egress:
                    - ports:
                        - port: 53
                          protocol: UDP
                """);

        Map<String, Object> gateway = rendered.ofService("NetworkPolicy", "gateway");
        // the given sources, and auth-service: the dashboard's webhooks page calls the public API through the gateway
        assertThat(Node.at(gateway, "spec.ingress.0.from")).isEqualTo(List.of(Map.of("namespaceSelector",
                Map.of("matchLabels", Map.of("kubernetes.io/metadata.name", "ingress-nginx"))),
                Map.of("podSelector", Map.of("matchLabels", Map.of("app.kubernetes.io/name", "auth-service",
                        "app.kubernetes.io/instance", RELEASE)))));
        assertThat(rendered.env("auth-service").get("SUITE_DASHBOARD_API_URL"))
                .isEqualTo(Map.of("name", "SUITE_DASHBOARD_API_URL", "value", "http://" + RELEASE + "-gateway:8080"));
        for (String service : SERVICES) {
            Map<String, Object> policy = rendered.ofService("NetworkPolicy", service);
            assertThat(Node.at(policy, "spec.policyTypes")).as(service).isEqualTo(List.of("Ingress", "Egress"));
            assertThat(Node.at(policy, "spec.egress")).as(service)
                    .isEqualTo(List.of(Map.of("ports", List.of(Map.of("port", 53, "protocol", "UDP")))));
        }
    }

    @Test
    void networkPoliciesCanBeLeftToThePlatform() {
        Manifests rendered = SuiteChart.render("""
                networkPolicy:
                  enabled: false
                """);

        assertThat(rendered.ofKind("NetworkPolicy")).isEmpty();
    }
}
