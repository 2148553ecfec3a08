package dev.visibility.platform.outbox;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import dev.visibility.platform.db.DatabaseWakeups;
import dev.visibility.platform.db.WakeableLoop;
import dev.visibility.platform.events.Topics;
import io.micrometer.observation.ObservationRegistry;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.transaction.ReactiveTransactionManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Publishes outbox rows to Kafka and marks them sent. One batch is one database transaction:
 * rows are locked with {@code FOR UPDATE SKIP LOCKED} (so replicas share the work), sent with an
 * idempotent producer ({@code acks=all}), and marked sent only after the broker acknowledged all
 * of them. A relay that stops between send and mark leaves the rows unsent; they are published
 * again on restart, which is why every record carries an eventId for consumers to de-duplicate.
 * <p>
 * The relay runs when an insert into {@code outbox} commits (a trigger notifies
 * {@link DatabaseWakeups}), and polls every {@code idle-poll-interval} besides; while
 * notifications do not arrive it polls every {@code poll-interval}.
 */
public class OutboxRelay implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(OutboxRelay.class);

    private final DatabaseClient db;
    private final TransactionalOperator tx;
    private final KafkaTemplate<String, byte[]> kafka;
    private final DatabaseWakeups wakeups;
    private final OutboxProperties properties;
    private final Scheduler scheduler;
    private volatile Supplier<Mono<Void>> afterSend = Mono::empty;
    private volatile boolean running;
    private volatile Disposable loop;
    private volatile long lastCleanup;

    public OutboxRelay(DatabaseClient db, TransactionalOperator tx, KafkaTemplate<String, byte[]> kafka,
            DatabaseWakeups wakeups, OutboxProperties properties) {
        this.db = db;
        this.wakeups = wakeups;
        this.tx = tx;
        this.kafka = kafka;
        this.properties = properties;
        // KafkaTemplate#send can block while it fetches metadata: keep that off shared threads.
        // one thread that may block: KafkaTemplate.send waits for the topic's metadata on its first
        // send (BlockHound refuses that on a non-blocking Reactor thread such as newSingle's)
        this.scheduler = Schedulers.newBoundedElastic(1, Integer.MAX_VALUE, "outbox-relay", 60, true);
    }

    /** A relay with its own idempotent producer that publishes the stored bytes unchanged. */
    public static OutboxRelay create(DatabaseClient db, ReactiveTransactionManager transactionManager,
            KafkaProperties kafkaProperties, DatabaseWakeups wakeups, OutboxProperties properties) {
        return create(db, transactionManager, kafkaProperties, wakeups, properties, ObservationRegistry.NOOP);
    }

    /** A relay whose sends are observed in {@code observations}. */
    public static OutboxRelay create(DatabaseClient db, ReactiveTransactionManager transactionManager,
            KafkaProperties kafkaProperties, DatabaseWakeups wakeups, OutboxProperties properties,
            ObservationRegistry observations) {
        Map<String, Object> config = new HashMap<>(kafkaProperties.buildProducerProperties());
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        config.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
        config.putIfAbsent(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        config.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 5);
        KafkaTemplate<String, byte[]> template = new KafkaTemplate<>(new DefaultKafkaProducerFactory<>(config));
        template.setObservationEnabled(true);
        template.setObservationRegistry(observations);
        return new OutboxRelay(db, TransactionalOperator.create(transactionManager), template, wakeups, properties);
    }

    /** Publishes one batch; answers how many rows were published. */
    public Mono<Integer> relayOnce() {
        return tx.transactional(fetchUnsent()
                .flatMap(rows -> rows.isEmpty() ? Mono.just(0)
                        : send(rows).then(Mono.defer(afterSend)).then(markSent(rows)).thenReturn(rows.size())));
    }

    /** Test hook: runs between the broker's acknowledgement and the mark, to simulate a crash there. */
    public void afterSend(Supplier<Mono<Void>> hook) {
        this.afterSend = hook;
    }

    private Mono<List<Row>> fetchUnsent() {
        return db.sql("""
                SELECT id, event_id, topic, message_key, event_type, payload FROM outbox
                WHERE sent_at IS NULL ORDER BY id LIMIT :limit FOR UPDATE SKIP LOCKED""")
                .bind("limit", properties.batchSize())
                .map((row, meta) -> new Row(row.get("id", Long.class), row.get("event_id", UUID.class),
                        row.get("topic", String.class), row.get("message_key", String.class),
                        row.get("event_type", String.class), row.get("payload", String.class)))
                .all()
                .collectList();
    }

    private Mono<Void> send(List<Row> rows) {
        return Mono.fromCallable(() -> {
            List<CompletableFuture<?>> acks = new ArrayList<>(rows.size());
            for (Row row : rows) {
                ProducerRecord<String, byte[]> record = new ProducerRecord<>(row.topic(), row.key(),
                        row.payload().getBytes(StandardCharsets.UTF_8));
                record.headers().add(Topics.EVENT_ID_HEADER, row.eventId().toString().getBytes(StandardCharsets.UTF_8));
                record.headers().add(Topics.EVENT_TYPE_HEADER, row.eventType().getBytes(StandardCharsets.UTF_8));
                acks.add(kafka.send(record));
            }
            return CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new));
        }).subscribeOn(scheduler)
                .flatMap(Mono::fromFuture)
                .timeout(properties.sendTimeout())
                .then();
    }

    private Mono<Void> markSent(List<Row> rows) {
        Long[] ids = rows.stream().map(Row::id).toArray(Long[]::new);
        return db.sql("UPDATE outbox SET sent_at = now() WHERE id = ANY(:ids)")
                .bind("ids", ids)
                .then();
    }

    private Mono<Void> cleanupIfDue() {
        long now = System.currentTimeMillis();
        if (now - lastCleanup < 60_000) {
            return Mono.empty();
        }
        lastCleanup = now;
        return db.sql("DELETE FROM outbox WHERE sent_at < now() - make_interval(secs => :seconds)")
                .bind("seconds", (double) properties.retention().toSeconds())
                .then();
    }

    @Override
    public void start() {
        running = true;
        WakeableLoop rounds = new WakeableLoop(wakeups.of("outbox"), wakeups::listening, properties.pollInterval(),
                properties.idlePollInterval(), Duration.ZERO, Duration.ofSeconds(1), scheduler);
        // a full batch runs again at once; a failure backs off for a second, so a broker outage does not spin
        loop = rounds.start(() -> relayOnce().flatMap(published -> published >= properties.batchSize()
                        ? Mono.just(true)
                        : cleanupIfDue().onErrorResume(e -> Mono.empty()).thenReturn(false)),
                e -> log.warn("Outbox relay batch failed, will retry: {}", e.toString()));
    }

    @Override
    public void stop() {
        running = false;
        Disposable current = loop;
        if (current != null) {
            current.dispose();
        }
        kafka.getProducerFactory().reset();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private record Row(Long id, UUID eventId, String topic, String key, String eventType, String payload) {
    }
}
