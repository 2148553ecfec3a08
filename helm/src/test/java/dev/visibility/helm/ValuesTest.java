package dev.visibility.helm;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.visibility.helm.SuiteChart.Manifests;
import dev.visibility.helm.SuiteChart.Node;
import org.junit.jupiter.api.Test;

import static dev.visibility.helm.SuiteChart.RELEASE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What values.schema.json and the chart's own checks refuse, and what they let through. */
class ValuesTest {

    @Test
    void schemaRejectsMissingKafkaBootstrapServers() {
        assertThatThrownBy(() -> SuiteChart.render("""
                kafka:
                  bootstrapServers: ""
                """))
                .hasMessageContaining("values don't meet the specifications of the schema")
                .hasMessageContaining("/kafka/bootstrapServers");
    }

    @Test
    void schemaRejectsBootstrapServersWithoutAPort() {
        assertThatThrownBy(() -> SuiteChart.render("""
                kafka:
                  bootstrapServers: kafka-0.kafka
                """))
                .hasMessageContaining("/kafka/bootstrapServers")
                .hasMessageContaining("does not match pattern");
    }

    @Test
    void schemaRejectsMissingPostgresHostAndImageRegistry() {
        assertThatThrownBy(() -> SuiteChart.render("""
                postgres:
                  host: ""
                image:
                  registry: ""
                """))
                .hasMessageContaining("/postgres/host")
                .hasMessageContaining("/image/registry");
    }

    @Test
    void schemaRejectsAMisspelledService() {
        assertThatThrownBy(() -> SuiteChart.render("""
                services:
                  action-service:
                    replicaCount: 2
                """))
                .hasMessageContaining("/services")
                .hasMessageContaining("action-service");
    }

    @Test
    void schemaRejectsAWebhookKeyThatIsNotAnAesKey() {
        assertThatThrownBy(() -> SuiteChart.render("""
                secrets:
                  webhookSecretKey: not-base64-and-too-short
                """))
                .hasMessageContaining("/secrets/webhookSecretKey");
    }

    @Test
    void schemaRejectsUnknownKafkaSecurityProtocolAndSaslMechanism() {
        assertThatThrownBy(() -> SuiteChart.render("""
                kafka:
                  securityProtocol: SASL_TLS
                  sasl:
                    mechanism: GSSAPI
                """))
                .hasMessageContaining("/kafka/securityProtocol")
                .hasMessageContaining("/kafka/sasl/mechanism");
    }

    @Test
    void schemaRejectsAnUnknownPostgresSslMode() {
        // libpq's modes that verify or encrypt; allow and prefer would fall back to plain text silently
        assertThatThrownBy(() -> SuiteChart.render("""
                postgres:
                  sslMode: prefer
                """))
                .hasMessageContaining("/postgres/sslMode");
    }

    @Test
    void schemaRejectsAnUnknownRateLimitStore() {
        assertThatThrownBy(() -> SuiteChart.render("""
                rateLimit:
                  store: memcached
                """))
                .hasMessageContaining("/rateLimit/store");
    }

    @Test
    void schemaRejectsARedisUrlWithCredentials() {
        // a password in the URL would sit in a plain value; it belongs in rateLimit.redis.passwordSecret
        assertThatThrownBy(() -> SuiteChart.render("""
                rateLimit:
                  store: redis
                  redis:
                    url: rediss://:hunter2@redis.cache.svc:6379
                """))
                .hasMessageContaining("/rateLimit/redis/url");
    }

    @Test
    void schemaRejectsAQuoteInTheSaslUserName() {
        assertThatThrownBy(() -> SuiteChart.render("""
                kafka:
                  sasl:
                    username: 'suite" admin="true'
                """))
                .hasMessageContaining("/kafka/sasl/username");
    }

    @Test
    void missingInternalTokenKeyIsRefused() {
        assertThatThrownBy(() -> SuiteChart.render("""
                secrets:
                  internalTokenPublicKey: ""
                """))
                .hasMessageContaining("secrets.internalTokenPrivateKey and secrets.internalTokenPublicKey must be set");
    }

    @Test
    void missingDatabasePasswordIsRefusedUnlessASecretProvidesIt() {
        assertThatThrownBy(() -> SuiteChart.render("""
                postgres:
                  password: ""
                """))
                .hasMessageContaining("postgres.password must be set");
    }

    @Test
    void disabledServiceIsLeftOutButTheGatewayStillKnowsWhereItRuns() {
        Manifests rendered = SuiteChart.render("""
                services:
                  mcp-service:
                    enabled: false
                    externalUrl: http://mcp.other-namespace.svc:8080
                  traffic-service:
                    enabled: false
                """);

        assertThat(rendered.names("Deployment")).hasSize(7)
                .doesNotContain(RELEASE + "-mcp-service", RELEASE + "-traffic-service");
        assertThat(rendered.names("Service")).hasSize(7);
        assertThat(rendered.names("NetworkPolicy")).hasSize(7);
        String json = (String) Node.map(rendered.get("ConfigMap", RELEASE), "data").get("gateway-application.json");
        // the gateway builds a route to every service; a disabled one without externalUrl answers 503
        assertThat(json).contains("\"mcp-service\":\"http://mcp.other-namespace.svc:8080\"")
                .contains("\"traffic-service\":\"http://suite-traffic-service:8080\"");
    }

    @Test
    void webhookKeyIsNotNeededWithoutWebhookService() {
        Manifests rendered = SuiteChart.render("""
                secrets:
                  webhookSecretKey: ""
                services:
                  webhook-service:
                    enabled: false
                """);

        assertThat(Node.map(rendered.get("Secret", RELEASE), "data")).doesNotContainKey("SUITE_WEBHOOK_SECRET_KEY");
    }

    @Test
    void namesStayWithinSixtyThreeCharactersAndDistinctForALongReleaseName() {
        String release = "a-release-name-of-fifty-three-characters-for-the-test";
        assertThat(release).hasSize(53);

        Manifests rendered = SuiteChart.renderAs(release);

        Map<String, List<String>> namesByKind = rendered.documents().stream().collect(Collectors.groupingBy(
                document -> (String) document.get("kind"),
                Collectors.mapping(document -> Node.string(document, "metadata.name"), Collectors.toList())));
        namesByKind.forEach((kind, names) -> {
            assertThat(names).as(kind).doesNotHaveDuplicates()
                    .allSatisfy(name -> assertThat(name).hasSizeLessThanOrEqualTo(63)
                            .matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?"));
        });
        // the service's own name always survives the cut
        assertThat(namesByKind.get("Deployment")).allSatisfy(name -> assertThat(name).hasSize(63));
        assertThat(namesByKind.get("Deployment")).anySatisfy(name -> assertThat(name).endsWith("-visibility-service"));
        assertThat(namesByKind.get("Deployment")).anySatisfy(name -> assertThat(name).endsWith("-gateway"));
    }

    @Test
    void releaseNamedLikeTheChartIsNotRepeated() {
        Manifests rendered = SuiteChart.renderAs("prod");
        Manifests named = SuiteChart.renderAs("suite-prod");

        assertThat(rendered.names("Deployment")).contains("prod-suite-gateway");
        assertThat(named.names("Deployment")).contains("suite-prod-gateway");
    }
}
