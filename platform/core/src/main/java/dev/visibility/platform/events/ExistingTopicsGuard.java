package dev.visibility.platform.events;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * Lets {@link KafkaAdmin} create the topics a service declares and nothing more: a topic that exists is left as it
 * is. Without it, KafkaAdmin adds partitions to an existing topic that has fewer than declared, so one process started
 * with a larger {@code suite.kafka.partitions} (a Helm value raised by mistake, a benchmark, an older deployment)
 * would move the keys of every topic between partitions: one project's records, or one API key's on the compacted
 * {@code auth.keys}, could then sit in two partitions with no order between them. A declared count that differs from
 * the topic's is logged as a warning; growing a topic is an operator's deliberate act (docs/operations.md).
 *
 * <p>KafkaAdmin asks the predicate about each declared topic once, after the context's singletons are created (a
 * service with no declared topic, such as the gateway with {@code suite.kafka.create-topics=false}, is never asked,
 * and opens no client). The first question lists and describes the broker's topics (two requests); a topic that does
 * not exist is created by KafkaAdmin as declared. If the broker cannot answer within KafkaAdmin's operation time-out,
 * nothing is created at this start, as when KafkaAdmin itself cannot reach the broker.
 */
final class ExistingTopicsGuard implements BeanPostProcessor {

    private static final Logger log = LoggerFactory.getLogger(ExistingTopicsGuard.class);
    /** How long closing the admin client may wait for calls still pending after a time-out. */
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
        if (bean instanceof KafkaAdmin admin) {
            admin.setCreateOrModifyTopic(new OnlyMissing(admin));
        }
        return bean;
    }

    /** True for a declared topic that does not exist yet; false, with a warning on a different count, otherwise. */
    static final class OnlyMissing implements Predicate<NewTopic> {

        private final KafkaAdmin admin;
        /** The broker's topics → their partitions, read on the first question. */
        private final Map<String, Integer> partitions = new HashMap<>();
        private boolean answered;
        private boolean described;

        OnlyMissing(KafkaAdmin admin) {
            this.admin = admin;
        }

        @Override
        public synchronized boolean test(NewTopic declared) {
            if (!answered) {
                describe();
            }
            if (!described) {
                return false;
            }
            Integer existing = partitions.get(declared.name());
            if (existing == null) {
                return true;
            }
            if (declared.numPartitions() > 0 && declared.numPartitions() != existing) {
                log.warn("Topic '{}': {} on the broker, {} declared by this service; left as it is (a topic's "
                        + "partitions are changed only by hand, since keys move between partitions: docs/operations.md)",
                        declared.name(), partitionCount(existing), partitionCount(declared.numPartitions()));
            }
            return false;
        }

        /** Lists the broker's topics and describes them, two requests for the whole start-up pass. */
        private void describe() {
            int timeoutSeconds = admin.getOperationTimeout();
            Map<String, Object> config = new HashMap<>(admin.getConfigurationProperties());
            // every request within the operation time-out (the client refuses an API time-out below the request's)
            config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutSeconds * 1000);
            config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, timeoutSeconds * 1000);
            // the client's own time-out answers first, with its reason; this one only bounds a client that would not
            long waitSeconds = timeoutSeconds + 5L;
            Admin client = null;
            try {
                client = Admin.create(config);
                Set<String> names = client.listTopics().names().get(waitSeconds, TimeUnit.SECONDS);
                for (Map.Entry<String, KafkaFuture<TopicDescription>> topic : client.describeTopics(names)
                        .topicNameValues().entrySet()) {
                    try {
                        partitions.put(topic.getKey(),
                                topic.getValue().get(waitSeconds, TimeUnit.SECONDS).partitions().size());
                    } catch (ExecutionException e) {
                        // deleted since it was listed: missing, as if it had not been listed
                        if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                            throw e;
                        }
                    }
                }
                described = true;
            } catch (ExecutionException | TimeoutException | RuntimeException e) {
                log.error("Could not describe the broker's topics ({}); none is created or changed at this start",
                        NestedExceptionUtils.getMostSpecificCause(e).toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                if (client != null) {
                    client.close(CLOSE_TIMEOUT);
                }
            }
            answered = true;
        }

        private static String partitionCount(int count) {
            return count == 1 ? "1 partition" : count + " partitions";
        }
    }
}
