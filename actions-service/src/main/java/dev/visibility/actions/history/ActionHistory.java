package dev.visibility.actions.history;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import dev.visibility.actions.action.Actor;
import io.r2dbc.postgresql.codec.Json;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.ObjectMapper;

/** The events history of actions: every change, who made it and when (table {@code action_history}). */
@Repository
public class ActionHistory {

    public static final String CREATED = "created";
    public static final String UPDATED = "updated";
    public static final String RECOMMENDATION_UPDATED = "recommendation_updated";
    public static final String WITHDRAWN = "withdrawn";

    private final DatabaseClient db;
    private final ObjectMapper mapper;

    public ActionHistory(DatabaseClient db, ObjectMapper mapper) {
        this.db = db;
        this.mapper = mapper;
    }

    /** Records one entry; joins the caller's transaction. */
    public Mono<Void> record(UUID projectId, UUID actionId, Instant at, String kind, Actor actor, List<Change> changes) {
        DatabaseClient.GenericExecuteSpec spec = db.sql("""
                INSERT INTO action_history (action_id, project_id, occurred_at, kind, origin, actor_type, user_id, key_id,
                    client_id, changed_fields, changes)
                VALUES (:action, :project, :at, :kind, :origin, :actorType, :userId, :keyId, :clientId, :fields, :changes)""")
                .bind("action", actionId)
                .bind("project", projectId)
                .bind("at", at)
                .bind("kind", kind)
                .bind("origin", actor.origin())
                .bind("actorType", actor.type())
                .bind("fields", changes.stream().map(Change::field).toArray(String[]::new))
                .bind("changes", Json.of(mapper.writeValueAsString(changes)));
        spec = actor.userId() == null ? spec.bindNull("userId", String.class) : spec.bind("userId", actor.userId());
        spec = actor.keyId() == null ? spec.bindNull("keyId", String.class) : spec.bind("keyId", actor.keyId());
        spec = actor.clientId() == null ? spec.bindNull("clientId", String.class) : spec.bind("clientId", actor.clientId());
        return spec.then();
    }

    public Mono<Long> count(UUID actionId) {
        return db.sql("SELECT count(*) FROM action_history WHERE action_id = :action").bind("action", actionId)
                .map(row -> row.get(0, Long.class)).one();
    }

    /** Newest first; entries recorded in one instant keep their recording order reversed. */
    public Flux<HistoryEntry> page(UUID actionId, int limit, long offset) {
        return db.sql("""
                SELECT id, occurred_at, kind, origin, actor_type, user_id, key_id, client_id, changed_fields, changes
                FROM action_history WHERE action_id = :action ORDER BY id DESC LIMIT :limit OFFSET :offset""")
                .bind("action", actionId).bind("limit", limit).bind("offset", offset)
                .map(row -> new HistoryEntry(
                        row.get("id", Long.class),
                        row.get("kind", String.class),
                        row.get("occurred_at", OffsetDateTime.class).toInstant(),
                        row.get("origin", String.class),
                        new HistoryEntry.Who(row.get("actor_type", String.class), row.get("user_id", String.class),
                                row.get("key_id", String.class), row.get("client_id", String.class)),
                        Arrays.asList(row.get("changed_fields", String[].class)),
                        mapper.readValue(row.get("changes", Json.class).asString(), new TypeReference<List<Change>>() { })))
                .all();
    }
}
