package dev.visibility.local;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;

/**
 * {@code ./suite settle} (internal, run by {@code ./suite up}): waits until the records the
 * services publish at their first start (the demo data, through the same topics as internal
 * producers) have been consumed: no lag of the consuming groups on the ingestion and webhook
 * topics, and no new record on them, for {@link #QUIET}. Without it, the first minute after the
 * first {@code up} answers with partial demo data and queues a user's first events behind the demo's.
 *
 * <p>When {@code up} says when it started the services ({@code since}), a suite that published
 * nothing on those topics since then (a second {@code up}: the demo data is in already) and has no
 * lag is settled at the first look, without waiting {@link #QUIET} for records that will not come.
 *
 * <p>{@code up} starts this command beside the services, with a {@link Go}: its JVM starts, connects
 * and asks the broker once while the services start, and the looks begin when {@code up} writes the
 * go file (every service ready). On a first {@code up} the JVM's start and the first look then no
 * longer follow the services' (about 4 s with the machine's two cores busy with the demo data).
 */
final class Settle {

    static final Duration QUIET = Duration.ofSeconds(2);
    /** Topic and the consumer group that works it off (spring.application.name; public.events: webhook-service's fan-out). */
    static final Map<String, String> CONSUMERS = Map.ofEntries(
            Map.entry("tracking.runs", "visibility-service"),
            Map.entry("agentpicks.runs", "visibility-service"),
            Map.entry("recommendations", "actions-service"),
            Map.entry("agents.runs", "agents-service"),
            Map.entry("agents.threads", "agents-service"),
            Map.entry("outcomes.measurements", "outcomes-service"),
            Map.entry("traffic.config", "traffic-service"),
            Map.entry("traffic.hits", "traffic-service"),
            Map.entry("adoption.metrics", "traffic-service"),
            Map.entry("public.events", "webhook-service"),
            Map.entry("webhook.deliveries", "webhook-service"));

    private final SuiteLocation suite;

    Settle(SuiteLocation suite) {
        this.suite = suite;
    }

    /**
     * Where {@code up} says that every service is ready, and the process of that {@code up}: the looks
     * begin when the file exists; the command ends without a word when the process is gone first
     * (a service failed to start and {@code up} exited).
     */
    record Go(Path file, long upPid) {

        private static final long LOOK_EVERY_MILLIS = 50;

        /** True once the file exists, false when {@code up} ended without writing it. */
        boolean await() throws InterruptedException {
            while (!Files.exists(file)) {
                if (ProcessHandle.of(upPid).filter(ProcessHandle::isAlive).isEmpty()) {
                    return Files.exists(file);
                }
                Thread.sleep(LOOK_EVERY_MILLIS);
            }
            return true;
        }
    }

    /** 0 when quiet within the time-out, 1 otherwise (up goes on either way). */
    int run(Duration timeout, PrintStream out) {
        return run(timeout, null, null, out);
    }

    /**
     * As {@link #run(Duration, PrintStream)}; {@code since} (null: not known) is when the services
     * were started: no record on the topics with a later timestamp and no lag is settled at once.
     * With a {@code go} (null: none), the looks and the time-out begin when it is given; 1 without a
     * word when it is not.
     */
    int run(Duration timeout, Instant since, Go go, PrintStream out) {
        Properties config = new Properties();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, suite.kafkaBootstrap());
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, "suite-settle");
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000);
        try (Admin admin = Admin.create(config)) {
            if (go != null) {
                try {
                    lag(admin, ends(admin)); // connects and loads what the looks use; the answer is not used
                } catch (ExecutionException | TimeoutException | RuntimeException e) {
                    // the looks after the go ask again and say so when the broker still does not answer
                }
                if (!go.await()) {
                    return 1;
                }
            }
            long started = System.nanoTime();
            long deadline = started + timeout.toNanos();
            Map<TopicPartition, Long> previousEnds = null;
            long quietSince = 0;
            long lag = -1;
            while (System.nanoTime() < deadline) {
                Map<TopicPartition, Long> ends = ends(admin);
                lag = lag(admin, ends);
                long now = System.nanoTime();
                if (previousEnds == null && lag == 0 && since != null && nothingPublishedSince(admin, ends, since)) {
                    out.printf("  nothing published since the services started, nothing to work off (%.1f s)%n", (now - started) / 1e9);
                    return 0;
                }
                if (lag == 0 && ends.equals(previousEnds)) {
                    if (now - quietSince >= QUIET.toNanos()) {
                        out.printf("  demo data ingested and delivered (%.1f s)%n", (now - started) / 1e9);
                        return 0;
                    }
                } else {
                    quietSince = now;
                }
                previousEnds = ends;
                Thread.sleep(500);
            }
            out.printf("  the services are still working off %d records after %d s; the first answers and deliveries may lag%n",
                    lag, timeout.toSeconds());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            out.println("  could not check the demo ingestion (" + e.getClass().getSimpleName() + "); going on");
            return 1;
        }
    }

    private static Map<TopicPartition, Long> ends(Admin admin) throws InterruptedException, ExecutionException, TimeoutException {
        Map<String, TopicDescription> topics = admin.describeTopics(CONSUMERS.keySet()).allTopicNames().get(10, TimeUnit.SECONDS);
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        topics.values().forEach(d -> d.partitions().forEach(p -> latest.put(new TopicPartition(d.name(), p.partition()), OffsetSpec.latest())));
        Map<TopicPartition, Long> ends = new HashMap<>();
        for (Map.Entry<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> e
                : admin.listOffsets(latest).all().get(10, TimeUnit.SECONDS).entrySet()) {
            ends.put(e.getKey(), e.getValue().offset());
        }
        return ends;
    }

    /** Whether no partition of {@code ends} holds a record stamped at or after {@code since}. */
    private static boolean nothingPublishedSince(Admin admin, Map<TopicPartition, Long> ends, Instant since)
            throws InterruptedException, ExecutionException, TimeoutException {
        Map<TopicPartition, OffsetSpec> newest = new HashMap<>();
        ends.keySet().forEach(p -> newest.put(p, OffsetSpec.maxTimestamp()));
        for (ListOffsetsResult.ListOffsetsResultInfo info : admin.listOffsets(newest).all().get(10, TimeUnit.SECONDS).values()) {
            // an empty partition answers timestamp -1
            if (info.timestamp() >= since.toEpochMilli()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Records not yet committed by the consuming groups; a partition a running group never committed
     * counts whole. A group that does not exist (a service renamed it) is left out rather than waited for.
     * Two requests whatever the number of groups: the broker's list of consumer groups, then the offsets of
     * those of them that are live (describing each group on its own cost about 0.1 s a group: the admin
     * client asks with the newer consumer-group API first and retries a classic group after its back-off).
     */
    private static long lag(Admin admin, Map<TopicPartition, Long> ends) throws InterruptedException, ExecutionException, TimeoutException {
        Map<String, ListConsumerGroupOffsetsSpec> live = new HashMap<>();
        for (GroupListing group : admin.listGroups(ListGroupsOptions.forConsumerGroups()).all().get(10, TimeUnit.SECONDS)) {
            if (CONSUMERS.containsValue(group.groupId()) && group.groupState().map(Settle::live).orElse(true)) {
                live.put(group.groupId(), new ListConsumerGroupOffsetsSpec());
            }
        }
        Map<String, Map<TopicPartition, OffsetAndMetadata>> committed = live.isEmpty() ? Map.of()
                : admin.listConsumerGroupOffsets(live).all().get(10, TimeUnit.SECONDS);
        long lag = 0;
        for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
            Map<TopicPartition, OffsetAndMetadata> group = committed.get(CONSUMERS.get(end.getKey().topic()));
            if (group != null) {
                OffsetAndMetadata done = group.get(end.getKey());
                lag += Math.max(0, end.getValue() - (done == null ? 0 : done.offset()));
            }
        }
        return lag;
    }

    private static boolean live(GroupState state) {
        return state != GroupState.DEAD && state != GroupState.UNKNOWN;
    }
}
