package dev.visibility.platform.events;

import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * Declares the topics of DESIGN.md so that whichever service starts first creates them
 * ({@code suite.kafka.create-topics}, on by default). {@code auth.keys} and {@code traffic.config} (a whole
 * configuration per project key) are compacted. Every topic has {@code suite.kafka.partitions} partitions unless
 * {@code suite.kafka.topic-partitions.<topic>} says otherwise (webhook.deliveries has more: its consumers make the
 * slow HTTP calls). KafkaAdmin creates only the topics that are missing and never changes one that exists, whoever
 * declared it ({@link ExistingTopicsGuard}).
 */
@AutoConfiguration
@ConditionalOnClass(KafkaAdmin.class)
public class KafkaTopicsAutoConfiguration {

    @Bean
    static ExistingTopicsGuard existingTopicsGuard() {
        return new ExistingTopicsGuard();
    }

    @Bean
    @ConditionalOnProperty(prefix = "suite.kafka", name = "create-topics", havingValue = "true", matchIfMissing = true)
    KafkaAdmin.NewTopics suiteTopics(@Value("${suite.kafka.replication-factor:1}") short replicationFactor,
            Environment environment) {
        List<NewTopic> topics = new ArrayList<>();
        for (String name : Topics.ALL) {
            TopicBuilder builder = TopicBuilder.name(name).partitions(Topics.partitions(environment, name))
                    .replicas(replicationFactor);
            if (name.equals(Topics.AUTH_KEYS) || name.equals(Topics.TRAFFIC_CONFIG)) {
                builder.compact();
            }
            topics.add(builder.build());
        }
        return new KafkaAdmin.NewTopics(topics.toArray(NewTopic[]::new));
    }
}
