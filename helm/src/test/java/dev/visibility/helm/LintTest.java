package dev.visibility.helm;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.Release;
import org.junit.jupiter.api.Test;

import static dev.visibility.helm.SuiteChart.DIR;
import static dev.visibility.helm.SuiteChart.KUBE_VERSION;
import static dev.visibility.helm.SuiteChart.NAMESPACE;
import static dev.visibility.helm.SuiteChart.REQUIRED_VALUES;
import static org.assertj.core.api.Assertions.assertThat;

/** helm lint, and the notes an install prints. */
class LintTest {

    @Test
    void chartPassesStrictLintWithTheRequiredValues() {
        LintResult result = SuiteChart.lintWithRequiredValues();

        assertThat(result.isFailed()).as(String.join("\n", result.getMessages())).isFalse();
        assertThat(result.getMessages()).noneMatch(message -> message.contains("[ERROR]") || message.contains("[WARNING]"));
    }

    @Test
    void chartPassesStrictLintWithEveryOperabilitySettingOn() {
        LintResult result = SuiteChart.lintWithRequiredValues(MetricsTest.SERVICE_MONITOR, ExternalSystemsTest.SCRAM_OVER_TLS,
                ExternalSystemsTest.POSTGRES_VERIFY_FULL, ExternalSystemsTest.REDIS, """
                networkPolicy:
                  metricsFrom:
                    - namespaceSelector:
                        matchLabels:
                          kubernetes.io/metadata.name: monitoring
                  egress:
                    - ports:
                        - port: 53
                          protocol: UDP
                  webhookEgress:
                    enabled: true
                """);

        assertThat(result.isFailed()).as(String.join("\n", result.getMessages())).isFalse();
        assertThat(result.getMessages()).noneMatch(message -> message.contains("[ERROR]") || message.contains("[WARNING]"));
    }

    @Test
    void lintOfTheBareChartNamesEveryRequiredValue() {
        LintResult result = SuiteChart.lintAsIs();

        assertThat(result.isFailed()).isTrue();
        assertThat(String.join("\n", result.getMessages()))
                .contains("/kafka/bootstrapServers", "/postgres/host", "/image/registry");
    }

    @Test
    void installNotesTellHowToReachTheGateway() {
        Release release = new Helm(DIR).install()
                .withName("suite")
                .withNamespace(NAMESPACE)
                .withKubeVersion(KUBE_VERSION)
                .withValuesFile(REQUIRED_VALUES)
                .dryRun()
                .clientOnly()
                .call();

        assertThat(release.getOutput())
                .contains("kubectl --namespace apps port-forward service/suite-gateway 8080:8080")
                .contains("Kafka:      kafka-0.kafka:9092,kafka-1.kafka:9092")
                .contains("Secrets were taken from values and stored in Secret suite.");
    }

    @Test
    void installNotesPointAtTheIngressHost() {
        Release release = new Helm(DIR).install()
                .withName("suite")
                .withNamespace(NAMESPACE)
                .withKubeVersion(KUBE_VERSION)
                .withValuesFile(REQUIRED_VALUES)
                .withValuesFile(SuiteChart.write(ExposureTest.INGRESS))
                .dryRun()
                .clientOnly()
                .call();

        assertThat(release.getOutput())
                .contains("https://api.example.com/api/v2")
                .doesNotContain("port-forward service/")
                // Actuator is never behind the Ingress: the notes reach it on a pod's management port
                .contains("port-forward deployment/suite-gateway 9090:management")
                .contains("curl http://127.0.0.1:9090/actuator/health/readiness");
    }
}
