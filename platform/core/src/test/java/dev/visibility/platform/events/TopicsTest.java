package dev.visibility.platform.events;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

/**
 * The one lookup of a topic's partition count (DESIGN.md, Kafka table; docs/operations.md "Kafka topics and their
 * partitions"): the topic's own setting, else the services' default, else 3.
 */
class TopicsTest {

    @Test
    void threePartitionsWhenNothingIsConfigured() {
        assertThat(Topics.partitions(new MockEnvironment(), Topics.TRACKING_RUNS)).isEqualTo(3);
    }

    @Test
    void theDefaultCountAppliesToEveryTopicWithoutItsOwn() {
        MockEnvironment environment = new MockEnvironment().withProperty("suite.kafka.partitions", "1")
                .withProperty("suite.kafka.topic-partitions.webhook.deliveries", "6");
        assertThat(Topics.partitions(environment, Topics.TRACKING_RUNS)).isEqualTo(1);
        assertThat(Topics.partitions(environment, Topics.AUTH_KEYS)).isEqualTo(1);
    }

    @Test
    void aTopicsOwnCountWinsOverTheDefaultAndOverTheBuiltInThree() {
        MockEnvironment withDefault = new MockEnvironment().withProperty("suite.kafka.partitions", "1")
                .withProperty("suite.kafka.topic-partitions.webhook.deliveries", "6");
        assertThat(Topics.partitions(withDefault, Topics.WEBHOOK_DELIVERIES)).isEqualTo(6);

        MockEnvironment withoutDefault = new MockEnvironment()
                .withProperty("suite.kafka.topic-partitions.traffic.hits", "2");
        assertThat(Topics.partitions(withoutDefault, Topics.TRAFFIC_HITS)).isEqualTo(2);
        assertThat(Topics.partitions(withoutDefault, Topics.RECOMMENDATIONS)).isEqualTo(3);
    }

    @Test
    void aSettingForAnotherTopicWithTheSamePrefixDoesNotApply() {
        // webhook.deliveries-retry-1 is a topic of its own; its count comes from webhook.deliveries' by the caller
        MockEnvironment environment = new MockEnvironment()
                .withProperty("suite.kafka.topic-partitions.webhook.deliveries", "6");
        assertThat(Topics.partitions(environment, "webhook.deliveries-retry-1")).isEqualTo(3);
    }
}
