package dev.visibility.webhook.deliveries;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.platform.db.ArrayLiterals;
import dev.visibility.webhook.delivery.DeliveryState;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Reads of the delivery log: one page of deliveries (keyset on created_at, id, newest first) and their attempts. */
@Repository
class DeliveryLog {

    /** Where a page starts: strictly after (older than) this delivery. */
    record Position(Instant createdAt, UUID id) {
    }

    private record Row(UUID id, String event, UUID eventId, String state, UUID redeliveryOf, Instant createdAt,
            Instant lastAttemptAt) {
    }

    /** What a log row reads: the delivery ({@code d}) and its event's name ({@code e}). */
    private static final String ROW_COLUMNS = "d.id, e.event, d.event_id, d.state, d.redelivery_of, d.created_at, d.last_attempt_at";

    private static final String SELECT_DELIVERIES = "SELECT " + ROW_COLUMNS + """

            FROM deliveries d JOIN events e ON e.event_id = d.event_id
            WHERE d.subscription_id = :webhookId""";

    /** The statements of {@link #page}: from the newest, and after a position. */
    private static final String PAGE = pageSql(false);
    private static final String PAGE_AFTER = pageSql(true);

    private static final String[] STATES = DeliveryState.wireNames().toArray(String[]::new);

    private final DatabaseClient db;

    DeliveryLog(DatabaseClient db) {
        this.db = db;
    }

    /**
     * Up to {@code limit} deliveries of the webhook in {@code state} (null: any), after {@code after}
     * (null: from the newest). Each state's deliveries are read newest first from
     * {@code deliveries_log_by_state} (at most {@code limit} of each); the page is the newest of them.
     * There is no index of the whole log by time: one more entry per delivery and per update of its
     * state (migration V6).
     */
    Mono<List<DeliveryItem>> page(UUID webhookId, String state, Position after, int limit) {
        DatabaseClient.GenericExecuteSpec spec = db.sql(after == null ? PAGE : PAGE_AFTER)
                .bind("webhookId", webhookId)
                .bind("states", ArrayLiterals.texts(state == null ? STATES : new String[] {state}))
                .bind("limit", limit);
        if (after != null) {
            spec = spec.bind("afterCreatedAt", after.createdAt()).bind("afterId", after.id());
        }
        return spec.map(DeliveryLog::toRow)
                .all()
                .collectList()
                .flatMap(this::withAttempts);
    }

    /** The statement of {@link #page}, with the keyset condition when {@code after}. */
    static String pageSql(boolean after) {
        return "SELECT " + ROW_COLUMNS + """

                FROM (SELECT d.* FROM unnest(:states::text[]) AS s (state)
                      CROSS JOIN LATERAL (
                          SELECT d.id, d.event_id, d.state, d.redelivery_of, d.created_at, d.last_attempt_at
                          FROM deliveries d
                          WHERE d.subscription_id = :webhookId AND d.state = s.state%s
                          ORDER BY d.created_at DESC, d.id DESC LIMIT :limit) d
                      ORDER BY d.created_at DESC, d.id DESC LIMIT :limit) d
                JOIN events e ON e.event_id = d.event_id
                ORDER BY d.created_at DESC, d.id DESC""".formatted(
                after ? " AND (d.created_at, d.id) < (:afterCreatedAt, :afterId)" : "");
    }

    /** One delivery of the webhook, with its attempts; empty when the webhook has no such delivery. */
    Mono<DeliveryItem> one(UUID webhookId, UUID deliveryId) {
        return db.sql(SELECT_DELIVERIES + " AND d.id = :id")
                .bind("webhookId", webhookId)
                .bind("id", deliveryId)
                .map(DeliveryLog::toRow)
                .all()
                .collectList()
                .flatMap(this::withAttempts)
                .flatMap(items -> items.isEmpty() ? Mono.empty() : Mono.just(items.get(0)));
    }

    private static Row toRow(io.r2dbc.spi.Row row, io.r2dbc.spi.RowMetadata meta) {
        return new Row(row.get("id", UUID.class), row.get("event", String.class), row.get("event_id", UUID.class),
                row.get("state", String.class), row.get("redelivery_of", UUID.class), row.get("created_at", Instant.class),
                row.get("last_attempt_at", Instant.class));
    }

    private Mono<List<DeliveryItem>> withAttempts(List<Row> rows) {
        if (rows.isEmpty()) {
            return Mono.just(List.of());
        }
        Map<UUID, List<DeliveryItem.Attempt>> attempts = new LinkedHashMap<>();
        rows.forEach(row -> attempts.put(row.id(), new ArrayList<>()));
        return attemptsOf(rows.stream().map(Row::id).toArray(UUID[]::new))
                .doOnNext(entry -> attempts.get(entry.getKey()).add(entry.getValue()))
                .then(Mono.fromSupplier(() -> rows.stream()
                        .map(row -> new DeliveryItem(row.id(), row.event(), row.eventId(), row.state(), row.redeliveryOf(),
                                List.copyOf(attempts.get(row.id())), row.createdAt(), row.lastAttemptAt()))
                        .toList()));
    }

    private Flux<Map.Entry<UUID, DeliveryItem.Attempt>> attemptsOf(UUID[] deliveryIds) {
        return db.sql("""
                SELECT delivery_id, attempt, at, http_status, duration_ms, error_class FROM delivery_attempts
                WHERE delivery_id = ANY (:ids) ORDER BY delivery_id, attempt""")
                .bind("ids", deliveryIds)
                .map((row, meta) -> Map.entry(row.get("delivery_id", UUID.class),
                        new DeliveryItem.Attempt(row.get("attempt", Integer.class), row.get("at", Instant.class),
                                row.get("http_status", Integer.class), row.get("duration_ms", Integer.class),
                                row.get("error_class", String.class))))
                .all();
    }
}
