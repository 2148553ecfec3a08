package dev.visibility.helm;

import java.util.List;
import java.util.Map;

import dev.visibility.helm.SuiteChart.Manifests;
import dev.visibility.helm.SuiteChart.Node;
import org.junit.jupiter.api.Test;

import static dev.visibility.helm.SuiteChart.NAMESPACE;
import static dev.visibility.helm.SuiteChart.RELEASE;
import static dev.visibility.helm.SuiteChart.SERVICES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 23 (operability): every service serves /actuator/prometheus on its management port, never through the
 * gateway (DESIGN.md, "Operations"); Prometheus finds it through pod annotations or a ServiceMonitor, and the
 * NetworkPolicies admit it only from the peers given.
 */
class MetricsTest {

    static final Map<String, Object> RELEASE_PODS = Map.of(
            "app.kubernetes.io/instance", RELEASE,
            "app.kubernetes.io/part-of", "suite");

    static final String SERVICE_MONITOR = """
            metrics:
              serviceMonitor:
                enabled: true
                interval: 15s
                labels:
                  release: kube-prometheus-stack
            """;

    @Test
    void everyPodIsAnnotatedForScrapingItsManagementPortByDefault() {
        Manifests rendered = SuiteChart.render();

        for (String service : SERVICES) {
            assertThat(podAnnotations(rendered, service)).as(service)
                    .containsEntry("prometheus.io/scrape", "true")
                    .containsEntry("prometheus.io/port", "9090")
                    .containsEntry("prometheus.io/path", "/actuator/prometheus");
        }
    }

    @Test
    void aServiceWithItsOwnManagementPortIsProbedAndScrapedThere() {
        Manifests rendered = SuiteChart.render("""
                services:
                  mcp-service:
                    managementPort: 9191
                """);

        assertThat(podAnnotations(rendered, "mcp-service")).containsEntry("prometheus.io/port", "9191");
        assertThat(Node.maps(rendered.container("mcp-service"), "ports"))
                .contains(Map.of("name", "management", "containerPort", 9191, "protocol", "TCP"));
        assertThat(Node.string(rendered.env("mcp-service").get("MANAGEMENT_SERVER_PORT"), "value")).isEqualTo("9191");
        // probes name the port, so they follow it
        assertThat(Node.string(rendered.container("mcp-service"), "readinessProbe.httpGet.port")).isEqualTo("management");
        assertThat(podAnnotations(rendered, "gateway")).containsEntry("prometheus.io/port", "9090");
    }

    @Test
    void podAnnotationsCanBeTurnedOff() {
        Manifests rendered = SuiteChart.render("""
                metrics:
                  podAnnotations: false
                """);

        for (String service : SERVICES) {
            assertThat(podAnnotations(rendered, service).keySet()).as(service)
                    .noneMatch(key -> key.startsWith("prometheus.io/"))
                    .contains("checksum/config", "checksum/secret");
        }
    }

    @Test
    void noServiceMonitorAndNoManagementPortOnTheServicesByDefault() {
        Manifests rendered = SuiteChart.render();

        assertThat(rendered.ofKind("ServiceMonitor")).isEmpty();
        for (String service : SERVICES) {
            assertThat(Node.maps(rendered.ofService("Service", service), "spec.ports")).as(service)
                    .extracting(port -> port.get("name")).containsExactly("http");
        }
    }

    @Test
    void serviceMonitorSelectsEveryServiceOfTheReleaseOnItsManagementPort() {
        Manifests rendered = SuiteChart.render(SERVICE_MONITOR);

        assertThat(rendered.ofKind("ServiceMonitor")).hasSize(1);
        Map<String, Object> monitor = rendered.get("ServiceMonitor", RELEASE);
        assertThat(monitor.get("apiVersion")).isEqualTo("monitoring.coreos.com/v1");
        assertThat(Node.map(monitor, "metadata.labels")).containsEntry("release", "kube-prometheus-stack");
        assertThat(Node.map(monitor, "spec.selector.matchLabels")).isEqualTo(RELEASE_PODS);
        assertThat(Node.at(monitor, "spec.namespaceSelector.matchNames")).isEqualTo(List.of(NAMESPACE));
        assertThat(Node.maps(monitor, "spec.endpoints")).containsExactly(Map.of(
                "port", "management", "path", "/actuator/prometheus", "scheme", "http", "interval", "15s"));
        for (String service : SERVICES) {
            Map<String, Object> svc = rendered.ofService("Service", service);
            // the monitor's selector matches each Service, and each names the port the monitor scrapes
            assertThat(Node.map(svc, "metadata.labels")).as(service).containsAllEntriesOf(RELEASE_PODS);
            assertThat(Node.maps(svc, "spec.ports")).as(service).containsExactly(
                    Map.of("name", "http", "port", 8080, "targetPort", "http", "protocol", "TCP"),
                    Map.of("name", "management", "port", 9090, "targetPort", "management", "protocol", "TCP"));
        }
    }

    @Test
    void theGatewaysIngressNeverRoutesTheManagementPort() {
        Manifests rendered = SuiteChart.render(SERVICE_MONITOR, ExposureTest.INGRESS, """
                ingress:
                  hosts:
                    - host: api.example.com
                      paths:
                        - path: /
                        - path: /actuator
                          pathType: Prefix
                """);

        List<Map<String, Object>> paths = Node.maps(rendered.ofService("Ingress", "gateway"), "spec.rules.0.http.paths");
        assertThat(paths).hasSize(2).allSatisfy(path -> assertThat(Node.at(path, "backend.service"))
                .isEqualTo(Map.of("name", RELEASE + "-gateway", "port", Map.of("name", "http"))));
    }

    @Test
    void withoutMetricsFromNoRuleAdmitsTheManagementPort() {
        Manifests rendered = SuiteChart.render(SERVICE_MONITOR);

        for (String service : SERVICES) {
            List<Map<String, Object>> rules = Node.maps(rendered.ofService("NetworkPolicy", service), "spec.ingress");
            assertThat(rules).as(service).hasSize(1)
                    .allSatisfy(rule -> assertThat(rule.get("ports")).isEqualTo(List.of(Map.of("port", "http", "protocol", "TCP"))));
        }
    }

    @Test
    void metricsFromAdmitsTheManagementPortFromThosePeersOnlyAndLeavesTheHttpRulesAlone() {
        Manifests rendered = SuiteChart.render("""
                networkPolicy:
                  metricsFrom:
                    - namespaceSelector:
                        matchLabels:
                          kubernetes.io/metadata.name: monitoring
                  extraIngress:
                    - ports:
                        - port: 8080
                      from:
                        - namespaceSelector:
                            matchLabels:
                              kubernetes.io/metadata.name: debug
                """);

        Map<String, Object> monitoring = Map.of("namespaceSelector",
                Map.of("matchLabels", Map.of("kubernetes.io/metadata.name", "monitoring")));
        for (String service : SERVICES) {
            List<Map<String, Object>> rules = Node.maps(rendered.ofService("NetworkPolicy", service), "spec.ingress");
            assertThat(rules).as(service).hasSize(3);
            assertThat(rules.get(0).get("ports")).as(service).isEqualTo(List.of(Map.of("port", "http", "protocol", "TCP")));
            if (service.equals("gateway")) {
                assertThat(rules.get(0)).as(service).doesNotContainKey("from");
            } else {
                assertThat(rules.get(0).get("from")).as(service)
                        .isEqualTo(List.of(Map.of("podSelector", Map.of("matchLabels", RELEASE_PODS))));
            }
            assertThat(rules.get(1)).as(service).isEqualTo(Map.of(
                    "ports", List.of(Map.of("port", "management", "protocol", "TCP")),
                    "from", List.of(monitoring)));
            assertThat(rules.get(2)).as(service).isEqualTo(Map.of(
                    "ports", List.of(Map.of("port", 8080)),
                    "from", List.of(Map.of("namespaceSelector",
                            Map.of("matchLabels", Map.of("kubernetes.io/metadata.name", "debug"))))));
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void webhookEgressLetsWebhookServiceAloneReachThePublicInternetButNoPrivateRange() {
        Manifests rendered = SuiteChart.render("""
                networkPolicy:
                  egress:
                    - ports:
                        - port: 53
                          protocol: UDP
                  webhookEgress:
                    enabled: true
                """);

        Map<String, Object> dns = Map.of("ports", List.of(Map.of("port", 53, "protocol", "UDP")));
        for (String service : SERVICES) {
            List<Map<String, Object>> egress = Node.maps(rendered.ofService("NetworkPolicy", service), "spec.egress");
            if (!service.equals("webhook-service")) {
                assertThat(egress).as(service).containsExactly(dns);
                continue;
            }
            assertThat(egress).hasSize(2);
            assertThat(egress.get(0)).isEqualTo(dns);
            Map<String, Object> delivery = egress.get(1);
            assertThat(delivery.get("ports")).isEqualTo(List.of(
                    Map.of("port", 443, "protocol", "TCP"), Map.of("port", 80, "protocol", "TCP")));
            List<Map<String, Object>> to = (List<Map<String, Object>>) delivery.get("to");
            Map<String, Object> ipv4 = Node.map(to.get(0), "ipBlock");
            assertThat(ipv4.get("cidr")).isEqualTo("0.0.0.0/0");
            // DESIGN.md, webhooks: loopback, private, link-local and metadata destinations are refused
            assertThat((List<String>) ipv4.get("except")).contains(
                    "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "127.0.0.0/8", "169.254.0.0/16", "100.64.0.0/10");
            Map<String, Object> ipv6 = Node.map(to.get(1), "ipBlock");
            assertThat(ipv6.get("cidr")).isEqualTo("::/0");
            assertThat((List<String>) ipv6.get("except")).contains("::1/128", "fc00::/7", "fe80::/10");
        }
    }

    @Test
    void webhookEgressWithoutTheOtherEgressRulesIsRefused() {
        // alone it would switch webhook-service's egress to deny-all-but-webhooks: no DNS, Kafka or PostgreSQL
        assertThatThrownBy(() -> SuiteChart.render("""
                networkPolicy:
                  webhookEgress:
                    enabled: true
                """))
                .hasMessageContaining("networkPolicy.webhookEgress adds to networkPolicy.egress");
    }

    private static Map<String, Object> podAnnotations(Manifests rendered, String service) {
        return Node.map(rendered.ofService("Deployment", service), "spec.template.metadata.annotations");
    }
}
