package dev.visibility.systemtests;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.visibility.platform.consumer.DeadLetters;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.testing.Http;
import dev.visibility.platform.testing.Http.Answer;
import dev.visibility.platform.testing.SharedInfrastructure;
import dev.visibility.systemtests.Receiver.Received;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The load of issue 22's webhook drills 1 and 2: {@link #SUBSCRIPTIONS} webhook subscriptions to
 * {@code search-tracking.completed} of the seeded project (created through a gateway, E13), each
 * on its own path of one streaming {@link Receiver}; {@link #EVENTS} tracking runs published on
 * {@code tracking.runs} at a steady rate (the real path: visibility-service stores each run and
 * writes the event to its outbox, the relay publishes it on {@code public.events}, webhook-service
 * fans it out and POSTs it); a {@link Tally} of what arrived per (event, subscription); and the
 * checks that nothing was dead-lettered.
 *
 * <p>The runs are {@code failed} runs without samples (capture day 2023-01-01): each emits exactly
 * one public event, {@code search-tracking.completed}, and none of them counts in the summary or
 * the responses the other tests read (only {@code completed} runs do).
 */
final class WebhookDrill {

    /** Tracking runs published (issue 22: 5,000); {@code -Ddrill.webhook.events=…} for a smaller run by hand. */
    static final int EVENTS = Integer.getInteger("drill.webhook.events", 5_000);
    /** Subscriptions (issue 22: 20, the most one project may have). */
    static final int SUBSCRIPTIONS = 20;
    /** Tracking runs published per second. */
    static final int PER_SECOND = Integer.getInteger("drill.webhook.per-second", 40);

    private static final Pattern RUN_ID = Pattern.compile("\"runId\"\\s*:\\s*\"([0-9a-f-]{36})\"");
    private static final Pattern UUIDS = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    private WebhookDrill() {
    }

    /** One subscription: its id, the signing secret E13 answered, and its path on the receiver. */
    record Subscription(String id, String secret, String path) {
    }

    /** Subscribes {@link #SUBSCRIPTIONS} paths of {@code receiver} to search-tracking.completed through {@code gateway}. */
    static List<Subscription> subscribe(String gateway, String projectId, String key, Receiver receiver) {
        List<Subscription> subscriptions = new ArrayList<>();
        for (int i = 0; i < SUBSCRIPTIONS; i++) {
            String path = "/drill/" + i;
            Answer created = Http.call(gateway, "POST", "/api/v2/projects/" + projectId + "/webhooks", key,
                    Map.of("url", receiver.url(path), "events", List.of("search-tracking.completed")), Map.of());
            assertThat(created.status()).as("E13 subscription %d: %s", i, created.body()).isEqualTo(201);
            subscriptions.add(new Subscription((String) created.data().get("id"), (String) created.data().get("secret"), path));
        }
        return subscriptions;
    }

    static void unsubscribe(String gateway, String projectId, String key, List<Subscription> subscriptions) {
        for (Subscription subscription : subscriptions) {
            Answer deleted = Http.call(gateway, "DELETE", "/api/v2/projects/" + projectId + "/webhooks/" + subscription.id(),
                    key, null, Map.of());
            assertThat(deleted.status()).as(deleted.body()).isEqualTo(200);
        }
    }

    /**
     * What the receiver got, per (event, subscription): the {@code X-Service-Delivery} of the first
     * POST, and for each further POST of the same pair whether it carried the same one. Every POST's
     * signature is verified (spec 6.4.1) with its subscription's secret.
     */
    static final class Tally implements Consumer<Received> {

        private final Map<String, Subscription> byPath = new ConcurrentHashMap<>();
        /** The run ids published (the publisher adds each before sending it). */
        final Set<String> runIds = ConcurrentHashMap.newKeySet();
        private final Map<String, String> firstDelivery = new ConcurrentHashMap<>();
        final AtomicLong posts = new AtomicLong();
        final AtomicLong duplicates = new AtomicLong();
        /** Repeats of a pair under another X-Service-Delivery (must stay 0). */
        final AtomicLong otherDeliveryId = new AtomicLong();
        final AtomicLong badSignatures = new AtomicLong();
        /** POSTs that are not of a drill run to a drill subscription (must stay 0). */
        final AtomicLong strangers = new AtomicLong();
        private final List<String> examples = java.util.Collections.synchronizedList(new ArrayList<>());

        void expect(List<Subscription> subscriptions) {
            subscriptions.forEach(s -> byPath.put(s.path(), s));
        }

        @Override
        public void accept(Received request) {
            posts.incrementAndGet();
            try {
                Subscription subscription = byPath.get(request.path());
                Matcher runId = RUN_ID.matcher(request.text());
                if (subscription == null || !runId.find() || !runIds.contains(runId.group(1))
                        || !"search-tracking.completed".equals(request.event())) {
                    strangers.incrementAndGet();
                    example("stranger: " + request + " " + request.text());
                    return;
                }
                if (!request.verifies(subscription.secret())) {
                    badSignatures.incrementAndGet();
                    example("bad signature: " + request.path());
                }
                String delivery = String.valueOf(request.header("X-Service-Delivery"));
                String first = firstDelivery.putIfAbsent(request.path() + " " + runId.group(1), delivery);
                if (first != null) {
                    duplicates.incrementAndGet();
                    if (!first.equals(delivery)) {
                        otherDeliveryId.incrementAndGet();
                        example("run " + runId.group(1) + " on " + request.path() + " under " + first + " and " + delivery);
                    }
                }
            } catch (RuntimeException e) {
                strangers.incrementAndGet();
                example("unreadable: " + e);
            }
        }

        private void example(String text) {
            if (examples.size() < 10) {
                examples.add(text);
            }
        }

        /** Distinct (event, subscription) pairs delivered. */
        int delivered() {
            return firstDelivery.size();
        }

        List<String> examples() {
            return List.copyOf(examples);
        }
    }

    /**
     * Publishes {@link #EVENTS} tracking runs of the project at {@link #PER_SECOND} on its own
     * producer (idempotent, {@code acks=all}, sends retried for 5 minutes: a broker restart delays
     * them, it does not fail them).
     */
    static final class Publisher implements AutoCloseable {

        private final KafkaProducer<String, String> producer;
        private final ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "drill-publisher");
            thread.setDaemon(true);
            return thread;
        });
        private final String projectId;
        private final Tally tally;
        private final AtomicInteger sent = new AtomicInteger();
        final AtomicInteger acknowledged = new AtomicInteger();
        final List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        private long startedNanos;

        Publisher(String bootstrapServers, String projectId, Tally tally) {
            this.producer = new KafkaProducer<>(producerProperties(bootstrapServers));
            this.projectId = projectId;
            this.tally = tally;
        }

        void start() {
            startedNanos = System.nanoTime();
            ticks.scheduleAtFixedRate(this::publishDue, 0, 100, TimeUnit.MILLISECONDS);
        }

        /** Sends what is due by now (a tick that was held up by a slow send catches up). */
        private void publishDue() {
            long due = Math.min(EVENTS, (System.nanoTime() - startedNanos) * PER_SECOND / 1_000_000_000L + 1);
            while (sent.get() < due) {
                sent.incrementAndGet();
                Map<String, Object> run = VisibilitySystemTest.tracking(projectId, LocalDate.of(2023, 1, 1), "failed", List.of());
                String runId = (String) run.get("runId");
                tally.runIds.add(runId);
                try {
                    producer.send(new ProducerRecord<>(Topics.TRACKING_RUNS, projectId, Kafka.JSON.writeValueAsString(run)),
                            (metadata, error) -> {
                                if (error == null) {
                                    acknowledged.incrementAndGet();
                                } else {
                                    failures.add(runId + ": " + error);
                                }
                            });
                } catch (RuntimeException e) {
                    failures.add(runId + ": " + e);
                }
            }
            if (sent.get() >= EVENTS) {
                producer.flush();
                ticks.shutdown();
            }
        }

        int sent() {
            return sent.get();
        }

        /**
         * Waits for the moment of a drill's next blow: {@code fraction} of the runs published, and
         * {@code deliveries} more (event, subscription) pairs delivered since {@code since} (the
         * service is at work again after the previous blow).
         */
        void awaitProgress(double fraction, Tally tally, int since, int deliveries, Duration within, Stages stages) {
            // the progress itself is what is polled, so that a time-out says where the load stood
            String what = "%.0f %% published and %d more deliveries".formatted(fraction * 100, deliveries);
            Stall stall = new Stall(what, stages, this::producerState);
            try {
                Waits.until(what, within, () -> stall.seen(new Progress(sent.get(), acknowledged.get(), failures.size(),
                                failures.isEmpty() ? "" : failures.get(0), tally.delivered())),
                        progress -> progress.sent() >= fraction * EVENTS && progress.delivered() >= since + deliveries);
            } catch (ConditionTimeoutException e) {
                // and where the pipeline behind the publisher stood: which stage holds the runs
                throw new AssertionError(e.getMessage() + "; " + producerState() + "; " + stages.describe(), e);
            }
        }

        /**
         * What the publisher's producer is doing, from its metrics: threads blocked in {@code send()}
         * (waiting for metadata or buffer), requests in flight, records sent, retried and failed, the
         * age of its metadata.
         */
        String producerState() {
            Map<String, Object> state = new TreeMap<>();
            producer.metrics().forEach((name, metric) -> {
                if (name.group().equals("producer-metrics") && PRODUCER_METRICS.contains(name.name())) {
                    state.put(name.name(), metric.metricValue());
                }
            });
            return "producer " + state;
        }

        private static final Set<String> PRODUCER_METRICS = Set.of("waiting-threads", "requests-in-flight",
                "record-send-total", "record-retry-total", "record-error-total", "metadata-age", "connection-count",
                "buffer-available-bytes");

        /** Where the load stands: runs sent, acknowledged and failed (the first failure), deliveries made. */
        record Progress(int sent, int acknowledged, int failed, String firstFailure, int delivered) {
        }

        /**
         * Prints where the pipeline stood each {@link #STALLED} (15 s; {@code -Ddrill.stalled-seconds})
         * that the deliveries did not move while the drill waited for them, so that a stall a drill
         * recovers from is in its output too (a CI run after a SIGKILL: no delivery for 66 s, then all
         * of them).
         */
        private static final class Stall {

            static final long STALLED = Duration.ofSeconds(Integer.getInteger("drill.stalled-seconds", 15)).toNanos();
            private final String what;
            private final Stages stages;
            private final Supplier<String> producer;
            private int delivered = -1;
            private long since;
            private long printed;

            Stall(String what, Stages stages, Supplier<String> producer) {
                this.what = what;
                this.stages = stages;
                this.producer = producer;
            }

            Progress seen(Progress progress) {
                long now = System.nanoTime();
                if (progress.delivered() != delivered) {
                    delivered = progress.delivered();
                    since = now;
                    printed = now;
                } else if (now - printed >= STALLED) {
                    printed = now;
                    System.out.printf("[drill] waiting for %s: no delivery for %.0f s at %s, %s; %s%n", what,
                            (now - since) / 1e9, progress, producer.get(), stages.describe());
                }
                return progress;
            }
        }

        /** Waits until every run is sent and acknowledged (or failed). */
        void awaitDone(Duration within) {
            Waits.until("all " + EVENTS + " tracking runs acknowledged", within,
                    () -> acknowledged.get() + failures.size(), n -> n >= EVENTS);
        }

        @Override
        public void close() {
            ticks.shutdownNow();
            producer.close(Duration.ofSeconds(10));
        }
    }

    /**
     * The stages between the drill's publisher and its receiver, for a stall's printout and a
     * time-out's message: the
     * services' consumer groups on {@code bootstrapServers} (committed against end offset, per
     * partition of {@code tracking.runs}, {@code public.events} and of any partition they lag on),
     * visibility-service's outbox in {@code visibilitySchema} (unsent rows, the oldest one's error)
     * and the drill's deliveries in {@code webhookSchema} by state.
     */
    record Stages(String bootstrapServers, String visibilitySchema, String webhookSchema, List<Subscription> subscriptions) {

        String describe() {
            List<String> parts = new ArrayList<>();
            try {
                parts.add("consumer groups " + groupOffsets());
            } catch (Exception e) {
                parts.add("consumer groups not read: " + e + (e.getCause() == null ? "" : ", " + e.getCause()));
            }
            try {
                parts.add("visibility outbox " + outbox());
            } catch (RuntimeException e) {
                parts.add("visibility outbox not read: " + e);
            }
            try {
                parts.add("deliveries by state " + deliveryStates(webhookSchema, subscriptions));
            } catch (RuntimeException e) {
                parts.add("deliveries not read: " + e);
            }
            return String.join("; ", parts);
        }

        private Map<String, String> groupOffsets() throws Exception {
            Map<String, String> lines = new TreeMap<>();
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                    AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000))) {
                List<String> groups = admin.listGroups(ListGroupsOptions.forConsumerGroups()).all().get(15, TimeUnit.SECONDS).stream()
                        .map(GroupListing::groupId)
                        .filter(id -> id.startsWith("visibility-service") || id.startsWith("webhook-service"))
                        .toList();
                for (String group : groups) {
                    Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                            .partitionsToOffsetAndMetadata().get(15, TimeUnit.SECONDS);
                    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
                    committed.keySet().forEach(partition -> latest.put(partition, OffsetSpec.latest()));
                    Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = admin.listOffsets(latest)
                            .all().get(15, TimeUnit.SECONDS);
                    committed.forEach((partition, offset) -> {
                        long end = ends.get(partition).offset();
                        long at = offset == null ? -1 : offset.offset();
                        if (at < end || partition.topic().equals(Topics.TRACKING_RUNS)
                                || partition.topic().equals(Topics.PUBLIC_EVENTS)) {
                            lines.put(group + " " + partition, at + "/" + end);
                        }
                    });
                }
            }
            return lines;
        }

        private String outbox() {
            try (Connection db = DriverManager.getConnection(SharedInfrastructure.jdbcUrl(), SharedInfrastructure.USER,
                    SharedInfrastructure.PASSWORD);
                    PreparedStatement query = db.prepareStatement("SELECT count(*), max(id),"
                            + " (SELECT last_error FROM " + visibilitySchema + ".outbox WHERE sent_at IS NULL ORDER BY id LIMIT 1)"
                            + " FROM " + visibilitySchema + ".outbox WHERE sent_at IS NULL");
                    ResultSet rows = query.executeQuery()) {
                rows.next();
                return "unsent " + rows.getLong(1) + " (last id " + rows.getObject(2) + ", oldest's error "
                        + rows.getString(3) + ")";
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    static Properties producerProperties(String bootstrapServers) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 300_000);
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 300_000);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        return props;
    }

    /** The drill's deliveries in webhook-service's table {@code <schema>.deliveries}, by state. */
    static Map<String, Integer> deliveryStates(String schema, List<Subscription> subscriptions) {
        Map<String, Integer> states = new TreeMap<>();
        query("SELECT state, count(*) FROM " + schema + ".deliveries WHERE subscription_id = ANY (?::uuid[]) GROUP BY state",
                subscriptions, rows -> states.put(rows.getString(1), rows.getInt(2)));
        return states;
    }

    /**
     * Attempts of the drill's deliveries that failed (stored with an error class), by error class:
     * each one sent its delivery again after a back-off (and only a delivery whose 4th attempt fails
     * is dead-lettered).
     */
    static Map<String, Integer> failedAttempts(String schema, List<Subscription> subscriptions) {
        Map<String, Integer> failed = new TreeMap<>();
        query("SELECT a.error_class, count(*) FROM " + schema + ".delivery_attempts a JOIN " + schema + ".deliveries d"
                + " ON d.id = a.delivery_id WHERE d.subscription_id = ANY (?::uuid[]) AND a.error_class IS NOT NULL"
                + " GROUP BY a.error_class", subscriptions, rows -> failed.put(rows.getString(1), rows.getInt(2)));
        return failed;
    }

    private interface Row {
        void read(ResultSet rows) throws SQLException;
    }

    private static void query(String sql, List<Subscription> subscriptions, Row row) {
        try (Connection db = DriverManager.getConnection(SharedInfrastructure.jdbcUrl(), SharedInfrastructure.USER,
                SharedInfrastructure.PASSWORD);
                PreparedStatement query = db.prepareStatement(sql)) {
            query.setArray(1, db.createArrayOf("text", subscriptions.stream().map(Subscription::id).toArray()));
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    row.read(rows);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Nothing of the drill was dead-lettered: a poison sentinel (a JSON string, not an object) is
     * published behind the drill's records, with the same key, on {@code tracking.runs} and
     * {@code public.events} (key: the project) and on {@code webhook.deliveries} (key: each
     * webhook id); once every sentinel is on its dead-letter topic, every record ahead of it on its
     * partition has been handled, and the dead letters of those keys must be the sentinels only
     * (for the project's keys: no dead letter names a drill run). Answers the drill's dead letters
     * (empty when the drill passes).
     */
    static List<String> deadLetters(String bootstrapServers, String projectId, Set<String> runIds,
            List<Subscription> subscriptions, Duration within) {
        String drill = "sentinel-" + UUID.randomUUID();
        List<String> dead = new ArrayList<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProperties(bootstrapServers))) {
            producer.send(new ProducerRecord<>(Topics.TRACKING_RUNS, projectId, "\"" + drill + "\""));
            producer.send(new ProducerRecord<>(Topics.PUBLIC_EVENTS, projectId, "\"" + drill + "\""));
            subscriptions.forEach(s -> producer.send(new ProducerRecord<>(Topics.WEBHOOK_DELIVERIES, s.id(), "\"" + drill + "\"")));
            producer.flush();
        }
        dead.addAll(deadLettersBefore(bootstrapServers, Topics.TRACKING_RUNS, Set.of(projectId), drill, runIds, within));
        dead.addAll(deadLettersBefore(bootstrapServers, Topics.PUBLIC_EVENTS, Set.of(projectId), drill, runIds, within));
        Set<String> webhookIds = new HashSet<>();
        subscriptions.forEach(s -> webhookIds.add(s.id()));
        // the webhook ids are new: every dead letter under one of them is the drill's
        dead.addAll(deadLettersBefore(bootstrapServers, Topics.WEBHOOK_DELIVERIES, webhookIds, drill, null, within));
        return dead;
    }

    private static List<String> deadLettersBefore(String bootstrapServers, String topic, Set<String> keys, String sentinel,
            Set<String> runIds, Duration within) {
        String dlt = DeadLetters.topic(topic);
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "drill-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        props.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, 1000);
        List<String> dead = new ArrayList<>();
        Set<String> sentinelsSeen = new HashSet<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props)) {
            consumer.subscribe(List.of(dlt));
            Waits.until("the sentinels on " + dlt + " (keys " + keys + ")", within, () -> {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    if (!keys.contains(record.key())) {
                        continue;
                    }
                    if (record.value().contains(sentinel)) {
                        sentinelsSeen.add(record.key());
                    } else if (runIds == null || namesARun(record.value(), runIds)) {
                        dead.add(dlt + ": " + record.value());
                    }
                }
                return sentinelsSeen.size();
            }, seen -> seen == keys.size());
        }
        return dead;
    }

    private static boolean namesARun(String value, Set<String> runIds) {
        Matcher ids = UUIDS.matcher(value);
        while (ids.find()) {
            if (runIds.contains(ids.group())) {
                return true;
            }
        }
        return false;
    }
}
