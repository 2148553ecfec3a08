package dev.visibility.webhook.delivery;

import dev.visibility.platform.events.Topics;
import org.springframework.kafka.retrytopic.DestinationTopic;
import org.springframework.kafka.retrytopic.RetryTopicNamesProviderFactory;
import org.springframework.kafka.retrytopic.SuffixingRetryTopicNamesProviderFactory;
import org.springframework.kafka.config.KafkaListenerEndpoint;

/**
 * The delivery topics. First attempts come from {@code webhook.deliveries} (a batch listener);
 * a failed first attempt goes to {@code webhook.deliveries-retry-1} (attempt 2), and from there
 * spring-kafka's non-blocking retries take it to {@code -retry-2} (attempt 3), {@code -retry-3}
 * (attempt 4) and finally {@code webhook.deliveries.DLT}. spring-kafka would name the topics
 * after the one its listener starts from; {@link Names} gives them these names instead.
 */
public final class DeliveryTopics {

    public static final String FIRST = Topics.WEBHOOK_DELIVERIES;
    public static final String RETRY_FIRST = FIRST + "-retry-1";
    /** The one dead-letter rule of the suite: {@code <topic>.DLT}. */
    public static final String DEAD_LETTERS = FIRST + ".DLT";

    private DeliveryTopics() {
    }

    /** Names the retry and dead-letter topics of {@link #RETRY_FIRST}; any other retryable topic keeps spring-kafka's names. */
    static final class Names implements RetryTopicNamesProviderFactory {

        private final SuffixingRetryTopicNamesProviderFactory suffixing = new SuffixingRetryTopicNamesProviderFactory();

        @Override
        public RetryTopicNamesProvider createRetryTopicNamesProvider(DestinationTopic.Properties properties) {
            RetryTopicNamesProvider standard = suffixing.createRetryTopicNamesProvider(properties);
            return new RetryTopicNamesProvider() {

                @Override
                public String getEndpointId(KafkaListenerEndpoint endpoint) {
                    return standard.getEndpointId(endpoint);
                }

                @Override
                public String getGroupId(KafkaListenerEndpoint endpoint) {
                    return standard.getGroupId(endpoint);
                }

                @Override
                public String getClientIdPrefix(KafkaListenerEndpoint endpoint) {
                    return standard.getClientIdPrefix(endpoint);
                }

                @Override
                public String getGroup(KafkaListenerEndpoint endpoint) {
                    return standard.getGroup(endpoint);
                }

                @Override
                public String getTopicName(String topic) {
                    if (!RETRY_FIRST.equals(topic)) {
                        return standard.getTopicName(topic);
                    }
                    if (properties.isDltTopic()) {
                        return DEAD_LETTERS;
                    }
                    if (properties.isRetryTopic()) {
                        // suffixes "-retry-0", "-retry-1": attempts 3 and 4
                        String suffix = properties.suffix();
                        int index = Integer.parseInt(suffix.substring(suffix.lastIndexOf('-') + 1));
                        return FIRST + "-retry-" + (index + 2);
                    }
                    return topic;
                }
            };
        }
    }
}
