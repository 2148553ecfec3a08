package dev.visibility.platform.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import dev.visibility.platform.testing.SharedInfrastructure;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * {@link ExistingTopicsGuard} on the shared broker, with Boot's own KafkaAdmin: the topics a service declares are
 * created when missing, and one that exists keeps its partitions whatever is declared (KafkaAdmin alone grows it,
 * which moves keys between partitions: the control case below shows that this broker lets it).
 */
@ExtendWith(OutputCaptureExtension.class)
class ExistingTopicsGuardIntegrationTest {

    private static Admin admin;

    @BeforeAll
    static void connect() {
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                SharedInfrastructure.kafka().getBrokersAsString()));
    }

    @AfterAll
    static void close() {
        admin.close();
    }

    @Test
    void anExistingTopicKeepsItsPartitionsAndAMissingOneIsCreatedAsDeclared(CapturedOutput output) throws Exception {
        String fewer = topic("fewer");
        String more = topic("more");
        String missing = topic("missing");
        create(fewer, 1);
        create(more, 4);

        runner(KafkaTopicsAutoConfiguration.class)
                .withBean("declared", KafkaAdmin.NewTopics.class, () -> new KafkaAdmin.NewTopics(
                        TopicBuilder.name(fewer).partitions(3).build(),
                        TopicBuilder.name(more).partitions(2).build(),
                        TopicBuilder.name(missing).partitions(2).compact().build()))
                .run(context -> assertThat(context).hasNotFailed());

        assertThat(partitions(fewer)).isEqualTo(1);
        assertThat(partitions(more)).isEqualTo(4);
        assertThat(partitions(missing)).isEqualTo(2);
        assertThat(cleanupPolicy(missing)).isEqualTo(TopicConfig.CLEANUP_POLICY_COMPACT);
        assertThat(output).contains("Topic '" + fewer + "': 1 partition on the broker, 3 partitions declared by this service")
                .contains("Topic '" + more + "': 4 partitions on the broker, 2 partitions declared by this service")
                .doesNotContain("Topic '" + missing + "':");
    }

    @Test
    void withoutTheGuardKafkaAdminGrowsAnExistingTopic() throws Exception {
        String fewer = topic("unguarded");
        create(fewer, 1);

        runner()
                .withBean("declared", NewTopic.class, () -> TopicBuilder.name(fewer).partitions(3).build())
                .run(context -> assertThat(context).hasNotFailed());

        assertThat(partitions(fewer)).isEqualTo(3);
    }

    @Test
    void aBrokerThatDoesNotAnswerLeavesTheContextStartedWithNothingCreated(CapturedOutput output) {
        runner(KafkaTopicsAutoConfiguration.class)
                .withPropertyValues("spring.kafka.bootstrap-servers=127.0.0.1:1", "spring.kafka.admin.operation-timeout=2s")
                .withBean("declared", NewTopic.class, () -> TopicBuilder.name(topic("unreachable")).build())
                .run(context -> assertThat(context).hasNotFailed());

        assertThat(output).contains("Could not describe the broker's topics")
                .contains("none is created or changed at this start");
    }

    private static ApplicationContextRunner runner(Class<?>... platform) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class))
                .withConfiguration(AutoConfigurations.of(platform))
                .withPropertyValues("spring.kafka.bootstrap-servers=" + SharedInfrastructure.kafka().getBrokersAsString(),
                        // only the topics each test declares, not the suite's
                        "suite.kafka.create-topics=false");
    }

    private static String topic(String what) {
        return "test.existing-topics." + what + "." + UUID.randomUUID();
    }

    private static void create(String topic, int partitions) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
    }

    private static int partitions(String topic) throws Exception {
        TopicDescription description = admin.describeTopics(Set.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS)
                .get(topic);
        return description.partitions().size();
    }

    private static String cleanupPolicy(String topic) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        return admin.describeConfigs(Set.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource)
                .get(TopicConfig.CLEANUP_POLICY_CONFIG).value();
    }
}
