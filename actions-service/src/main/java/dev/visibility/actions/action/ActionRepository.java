package dev.visibility.actions.action;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.visibility.actions.config.ActionsProperties;
import dev.visibility.platform.db.DatabaseWakeups;
import io.r2dbc.postgresql.codec.Json;
import io.r2dbc.spi.Readable;
import io.r2dbc.spi.Row;
import io.r2dbc.spi.RowMetadata;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.ObjectMapper;

/** SQL of the {@code actions} and {@code action_prompts} tables. */
@Repository
public class ActionRepository {

    /** Columns every read needs; the heavy jsonb ones are added only where a response uses them. */
    public static final String SUMMARY_COLUMNS = """
            id, project_id, account_id, origin, fingerprint_key, title, description, channels, priority, status,
            blocked, assigned_to, owner_name, opportunity, family, percentile_status, percentile, percentile_pool_size,
            score, effort_score, portfolio_category, portfolio_rank, steered_from_page_url, follow_up_of_id,
            follow_up_of_title, follow_up_of_shipped_at, created_at, updated_at, shipped_at, expected_impact,
            primary_cta_kind, target_label, target_type, what_changed, why_now, is_command_center, bucket,
            suggestion_status, hidden, acted_on, high_stakes, brief_generated_at, brief_updated_at, brief_basis_hash,
            material_hash, prompt_count, user_fields""";
    public static final String ALL_COLUMNS = SUMMARY_COLUMNS + ", target_payload, context, brief, material";
    static final String LIST_CONTEXT_COLUMNS = SUMMARY_COLUMNS + ", context";

    /** E3 order: rank ascending nulls last, then score, creation time, id (the index actions_list). */
    public static final String LIST_ORDER = "status_order, portfolio_rank ASC NULLS LAST, score DESC NULLS LAST, created_at, id";

    private final DatabaseClient db;
    private final ObjectMapper mapper;
    private final DatabaseWakeups wakeups;
    /**
     * The opportunity and context of an action, parsed, by their stored JSON text. Lists read the same
     * hot rows again and again, and parsing those jsonb values was a quarter of a large page's CPU.
     * Keyed by the text itself, an entry can never be stale: a changed value is a different key. The
     * records are immutable and shared. Bounded by the characters of the keys.
     */
    private final Cache<String, Opportunity> parsedOpportunities;
    private final Cache<String, ActionContext> parsedContexts;

    public ActionRepository(DatabaseClient db, ObjectMapper mapper, ActionsProperties properties, DatabaseWakeups wakeups) {
        this.db = db;
        this.mapper = mapper;
        this.wakeups = wakeups;
        this.parsedOpportunities = parseCache(properties.parseCacheChars() / 4);
        this.parsedContexts = parseCache(properties.parseCacheChars() - properties.parseCacheChars() / 4);
    }

    private static <T> Cache<String, T> parseCache(long maxChars) {
        return Caffeine.newBuilder()
                .maximumWeight(maxChars)
                .<String, T>weigher((text, parsed) -> text.length())
                .build();
    }

    public DatabaseClient db() {
        return db;
    }

    public Mono<ActionEntity> find(UUID projectId, UUID id) {
        return db.sql("SELECT " + ALL_COLUMNS + " FROM actions WHERE project_id = :project AND id = :id")
                .bind("project", projectId).bind("id", id)
                .map(this::map).one();
    }

    /** The same row, locked for the rest of the transaction. */
    public Mono<ActionEntity> findForUpdate(UUID projectId, UUID id) {
        return db.sql("SELECT " + ALL_COLUMNS + " FROM actions WHERE project_id = :project AND id = :id FOR UPDATE")
                .bind("project", projectId).bind("id", id)
                .map(this::map).one();
    }

    public Mono<ActionEntity> findByFingerprintForUpdate(UUID projectId, String fingerprintKey) {
        return db.sql("SELECT " + ALL_COLUMNS + " FROM actions WHERE project_id = :project AND fingerprint_key = :key FOR UPDATE")
                .bind("project", projectId).bind("key", fingerprintKey)
                .map(this::map).one();
    }

    /**
     * How many actions the project holds (of one status order, when given): the sum of the deltas
     * the triggers of V3__action_counts.sql append, exact for every committed write.
     */
    public Mono<Long> count(UUID projectId, Integer statusOrder) {
        DatabaseClient.GenericExecuteSpec spec = db.sql(countSql(statusOrder)).bind("project", projectId);
        if (statusOrder != null) {
            spec = spec.bind("statusOrder", statusOrder.shortValue());
        }
        return spec.map(row -> row.get(0, Long.class)).one();
    }

    private static String countSql(Integer statusOrder) {
        return "SELECT coalesce(sum(delta), 0)::bigint FROM action_count_deltas WHERE project_id = :project"
                + (statusOrder == null ? "" : " AND status_order = :statusOrder");
    }

    /**
     * How many actions the project holds (as {@link #count}) and the key of its actions' state, in one
     * snapshot: the sum of the changes the triggers of V5__action_changes.sql append, and the last
     * row's id. Any committed insert, update or delete of the project's actions changes the key.
     */
    public Mono<ListState> listState(UUID projectId, Integer statusOrder) {
        String sql = "SELECT (" + countSql(statusOrder) + ") AS total,"
                + " coalesce(sum(changes), 0)::bigint AS changes, coalesce(max(id), 0) AS last_change"
                + " FROM action_changes WHERE project_id = :project";
        DatabaseClient.GenericExecuteSpec spec = db.sql(sql).bind("project", projectId);
        if (statusOrder != null) {
            spec = spec.bind("statusOrder", statusOrder.shortValue());
        }
        return spec.map(row -> new ListState(row.get("total", Long.class),
                new ListState.Version(row.get("changes", Long.class), row.get("last_change", Long.class)))).one();
    }

    /**
     * @param total   the project's actions (of the status order asked for)
     * @param version the project's actions' state: equal versions, equal actions
     */
    public record ListState(long total, Version version) {
        public record Version(long changes, long lastChange) {
        }
    }

    /**
     * Sums the change rows of every project that has more than one into one (V5__action_changes.sql);
     * answers how many projects were compacted. The sum a reader sees never changes by it; the last
     * id does (one more rendering of the project's pages).
     */
    public Mono<Long> compactChanges() {
        return db.sql("""
                WITH gone AS (
                    DELETE FROM action_changes WHERE project_id IN (
                        SELECT project_id FROM action_changes GROUP BY project_id HAVING count(*) > 1)
                    RETURNING project_id, changes),
                kept AS (
                    INSERT INTO action_changes (project_id, changes)
                    SELECT project_id, sum(changes) FROM gone GROUP BY project_id
                    RETURNING project_id)
                SELECT count(*) FROM kept""")
                .map(row -> row.get(0, Long.class)).one();
    }

    /**
     * Replaces the count deltas of every project that has more than one per status order by their
     * sums; answers how many projects were compacted. Deltas that writers commit meanwhile are not
     * in the statement's snapshot and stay; a concurrent compaction's rows are skipped once it
     * commits. So the sums never change, whoever runs it and however often.
     */
    public Mono<Long> compactCounts() {
        return db.sql("""
                WITH gone AS (
                    DELETE FROM action_count_deltas WHERE project_id IN (
                        SELECT project_id FROM action_count_deltas GROUP BY project_id
                        HAVING count(*) > count(DISTINCT status_order))
                    RETURNING project_id, status_order, delta),
                kept AS (
                    INSERT INTO action_count_deltas (project_id, status_order, delta)
                    SELECT project_id, status_order, sum(delta) FROM gone GROUP BY project_id, status_order
                    HAVING sum(delta) <> 0
                    RETURNING project_id)
                SELECT count(DISTINCT project_id) FROM gone""")
                .map(row -> row.get(0, Long.class)).one();
    }

    /**
     * One page in E3 order; {@code withContext} adds the context column (the brief's readiness is told
     * by its timestamps and hashes, which every read has; the brief, material facts and target
     * payload themselves are not read for a list).
     */
    public Flux<ActionEntity> page(UUID projectId, Integer statusOrder, int limit, long offset, boolean withContext) {
        // the offset is walked in the index alone (index-only scan of actions_list); only the rows
        // of the page are then read from the table
        String sql = "SELECT " + (withContext ? LIST_CONTEXT_COLUMNS : SUMMARY_COLUMNS) + " FROM actions WHERE id IN ("
                + "SELECT id FROM actions WHERE project_id = :project"
                + (statusOrder == null ? "" : " AND status_order = :statusOrder")
                + " ORDER BY " + LIST_ORDER + " LIMIT :limit OFFSET :offset) ORDER BY " + LIST_ORDER;
        DatabaseClient.GenericExecuteSpec spec = db.sql(sql).bind("project", projectId)
                .bind("limit", limit).bind("offset", offset);
        if (statusOrder != null) {
            spec = spec.bind("statusOrder", statusOrder.shortValue());
        }
        return spec.map(this::map).all();
    }

    /** Actions that follow up any of {@code ids}: {followedId → [follow-up]}. */
    public Mono<Map<UUID, List<ActionEntity>>> followUps(UUID projectId, Collection<UUID> ids) {
        if (ids.isEmpty()) {
            return Mono.just(Map.of());
        }
        return db.sql("SELECT " + SUMMARY_COLUMNS + " FROM actions WHERE project_id = :project AND follow_up_of_id = ANY(:ids)"
                        + " ORDER BY created_at, id")
                .bind("project", projectId).bind("ids", ids.toArray(UUID[]::new))
                .map(this::map).all()
                .collectList()
                .map(list -> {
                    Map<UUID, List<ActionEntity>> byFollowed = new LinkedHashMap<>();
                    for (ActionEntity e : list) {
                        byFollowed.computeIfAbsent(e.followUpOf.actionId(), k -> new ArrayList<>()).add(e);
                    }
                    return byFollowed;
                });
    }

    /** E6: actions linked to a prompt by stored evidence, in E3 order, at most {@code limit}. */
    public Flux<ActionEntity> linkedToPrompt(UUID projectId, UUID promptId, boolean includeHidden, int limit) {
        return db.sql("SELECT " + SUMMARY_COLUMNS + " FROM actions a WHERE a.project_id = :project"
                        + " AND EXISTS (SELECT 1 FROM action_prompts p WHERE p.project_id = :project"
                        + " AND p.prompt_id = :prompt AND p.action_id = a.id)"
                        + (includeHidden ? "" : " AND NOT a.hidden")
                        + " ORDER BY " + LIST_ORDER + " LIMIT :limit")
                .bind("project", projectId).bind("prompt", promptId).bind("limit", limit)
                .map(this::map).all();
    }

    public Mono<Void> insert(ActionEntity e) {
        Map<String, Object> values = values(e);
        String columns = String.join(", ", values.keySet());
        String params = String.join(", ", values.keySet().stream().map(k -> ":" + k).toList());
        return bind(db.sql("INSERT INTO actions (" + columns + ") VALUES (" + params + ")"), values).then();
    }

    public Mono<Void> update(ActionEntity e) {
        Map<String, Object> values = values(e);
        values.remove("project_id");
        values.remove("created_at");
        String sets = String.join(", ", values.keySet().stream().filter(k -> !k.equals("id")).map(k -> k + " = :" + k).toList());
        return bind(db.sql("UPDATE actions SET " + sets + " WHERE id = :id"), values).then();
    }

    public Mono<Void> delete(UUID id) {
        return db.sql("DELETE FROM actions WHERE id = :id").bind("id", id).then();
    }

    /** Replaces the prompt links of an action with the prompts of its evidence. */
    public Mono<Void> replacePromptLinks(UUID projectId, UUID actionId, List<String> promptIds) {
        Mono<Void> clear = db.sql("DELETE FROM action_prompts WHERE action_id = :id").bind("id", actionId).then();
        if (promptIds.isEmpty()) {
            return clear;
        }
        UUID[] prompts = promptIds.stream().map(UUID::fromString).toArray(UUID[]::new);
        return clear.then(db.sql("""
                        INSERT INTO action_prompts (project_id, prompt_id, action_id)
                        SELECT :project, p, :id FROM unnest(:prompts) AS p ON CONFLICT DO NOTHING""")
                .bind("project", projectId).bind("id", actionId).bind("prompts", prompts).then());
    }

    /**
     * Marks the project's portfolio ranks and percentile pools for recomputation (same transaction);
     * RankMaintainer is woken when it commits.
     */
    public Mono<Void> markRanksPending(UUID projectId) {
        return db.sql("INSERT INTO rank_pending (project_id) VALUES (:project) ON CONFLICT DO NOTHING")
                .bind("project", projectId).then()
                .then(wakeups.onCommit("rank_pending"));
    }

    /** Rankable open suggestions of one family other than {@code except}: {pool size, how many score at most {@code score}}. */
    public Mono<long[]> poolPosition(UUID projectId, String family, double score, UUID except) {
        return db.sql("""
                SELECT count(*) AS pool, count(*) FILTER (WHERE score <= :score) AS at_or_below FROM actions
                WHERE project_id = :project AND family = :family AND percentile_status = 'ranked'
                  AND status = 'suggested' AND NOT hidden AND id <> :except""")
                .bind("project", projectId).bind("family", family).bind("score", score).bind("except", except)
                .map(row -> new long[] {row.get("pool", Long.class), row.get("at_or_below", Long.class)})
                .one();
    }

    // ---------------------------------------------------------------------------------------------

    private Map<String, Object> values(ActionEntity e) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", e.id);
        v.put("project_id", e.projectId);
        v.put("account_id", typed(e.accountId, String.class));
        v.put("origin", e.origin);
        v.put("fingerprint_key", typed(e.fingerprintKey, String.class));
        v.put("title", e.title);
        v.put("description", e.description);
        v.put("channels", e.channels.toArray(String[]::new));
        v.put("priority", e.priority);
        v.put("status", e.status);
        v.put("blocked", e.blocked);
        v.put("assigned_to", typed(e.assignedTo, UUID.class));
        v.put("owner_name", typed(e.ownerName, String.class));
        v.put("opportunity", json(e.opportunity));
        v.put("family", typed(e.family, String.class));
        v.put("percentile_status", typed(e.percentileStatus, String.class));
        v.put("percentile", typed(e.percentile, Double.class));
        v.put("percentile_pool_size", typed(e.percentilePoolSize, Integer.class));
        v.put("score", typed(e.score, Double.class));
        v.put("effort_score", typed(e.effortScore, Double.class));
        v.put("portfolio_category", typed(e.portfolioCategory, String.class));
        v.put("portfolio_rank", typed(e.portfolioRank, Integer.class));
        v.put("steered_from_page_url", typed(e.steeredFromPageUrl, String.class));
        v.put("follow_up_of_id", typed(e.followUpOf == null ? null : e.followUpOf.actionId(), UUID.class));
        v.put("follow_up_of_title", typed(e.followUpOf == null ? null : e.followUpOf.title(), String.class));
        v.put("follow_up_of_shipped_at", typed(e.followUpOf == null ? null : e.followUpOf.shippedAt(), Instant.class));
        v.put("created_at", e.createdAt);
        v.put("updated_at", e.updatedAt);
        v.put("shipped_at", typed(e.shippedAt, Instant.class));
        v.put("expected_impact", typed(e.expectedImpact, String.class));
        v.put("primary_cta_kind", typed(e.primaryCtaKind, String.class));
        v.put("target_label", typed(e.targetLabel, String.class));
        v.put("target_type", typed(e.targetType, String.class));
        v.put("target_payload", json(e.targetPayload));
        v.put("what_changed", typed(e.whatChanged, String.class));
        v.put("why_now", typed(e.whyNow, String.class));
        v.put("is_command_center", e.commandCenter);
        v.put("context", json(e.context));
        v.put("bucket", typed(e.bucket, String.class));
        v.put("suggestion_status", e.suggestionStatus);
        v.put("hidden", e.hidden);
        v.put("acted_on", e.actedOn);
        v.put("high_stakes", e.highStakes);
        v.put("brief", json(e.brief));
        v.put("brief_generated_at", typed(e.brief == null ? null : e.brief.generatedAt(), Instant.class));
        v.put("brief_updated_at", typed(e.brief == null ? null : e.brief.updatedAt(), Instant.class));
        v.put("brief_basis_hash", typed(e.briefBasisHash, String.class));
        v.put("material", json(e.material));
        v.put("material_hash", typed(e.materialHash, String.class));
        v.put("prompt_count", e.promptCount);
        v.put("user_fields", e.userFields.toArray(String[]::new));
        return v;
    }

    /** A value or, when null, the type to bind a null of. */
    private static Object typed(Object value, Class<?> type) {
        return value == null ? new NullOf(type) : value;
    }

    private Object json(Object value) {
        return value == null ? new NullOf(Json.class) : Json.of(mapper.writeValueAsString(value));
    }

    private record NullOf(Class<?> type) {
    }

    private static DatabaseClient.GenericExecuteSpec bind(DatabaseClient.GenericExecuteSpec spec, Map<String, Object> values) {
        for (Map.Entry<String, Object> entry : values.entrySet()) {
            spec = entry.getValue() instanceof NullOf nullOf
                    ? spec.bindNull(entry.getKey(), nullOf.type())
                    : spec.bind(entry.getKey(), entry.getValue());
        }
        return spec;
    }

    public ActionEntity map(Row row, RowMetadata metadata) {
        return read(row, metadata);
    }

    /** Reads the summary columns and those heavy jsonb columns the query selected. */
    private ActionEntity read(Readable row, RowMetadata metadata) {
        ActionEntity e = new ActionEntity();
        e.id = row.get("id", UUID.class);
        e.projectId = row.get("project_id", UUID.class);
        e.accountId = row.get("account_id", String.class);
        e.origin = row.get("origin", String.class);
        e.fingerprintKey = row.get("fingerprint_key", String.class);
        e.title = row.get("title", String.class);
        e.description = row.get("description", String.class);
        e.channels = new ArrayList<>(Arrays.asList(row.get("channels", String[].class)));
        e.priority = row.get("priority", String.class);
        e.status = row.get("status", String.class);
        e.blocked = Boolean.TRUE.equals(row.get("blocked", Boolean.class));
        e.assignedTo = row.get("assigned_to", UUID.class);
        e.ownerName = row.get("owner_name", String.class);
        e.opportunity = readCached(row.get("opportunity", Json.class), Opportunity.class, parsedOpportunities);
        e.family = row.get("family", String.class);
        e.percentileStatus = row.get("percentile_status", String.class);
        e.percentile = row.get("percentile", Double.class);
        e.percentilePoolSize = row.get("percentile_pool_size", Integer.class);
        e.score = row.get("score", Double.class);
        e.effortScore = row.get("effort_score", Double.class);
        e.portfolioCategory = row.get("portfolio_category", String.class);
        e.portfolioRank = row.get("portfolio_rank", Integer.class);
        e.steeredFromPageUrl = row.get("steered_from_page_url", String.class);
        UUID followed = row.get("follow_up_of_id", UUID.class);
        e.followUpOf = followed == null ? null : new FollowUpOf(followed, row.get("follow_up_of_title", String.class),
                instant(row, "follow_up_of_shipped_at"));
        e.createdAt = instant(row, "created_at");
        e.updatedAt = instant(row, "updated_at");
        e.shippedAt = instant(row, "shipped_at");
        e.expectedImpact = row.get("expected_impact", String.class);
        e.primaryCtaKind = row.get("primary_cta_kind", String.class);
        e.targetLabel = row.get("target_label", String.class);
        e.targetType = row.get("target_type", String.class);
        e.whatChanged = row.get("what_changed", String.class);
        e.whyNow = row.get("why_now", String.class);
        e.commandCenter = Boolean.TRUE.equals(row.get("is_command_center", Boolean.class));
        e.bucket = row.get("bucket", String.class);
        e.suggestionStatus = row.get("suggestion_status", String.class);
        e.hidden = Boolean.TRUE.equals(row.get("hidden", Boolean.class));
        e.actedOn = Boolean.TRUE.equals(row.get("acted_on", Boolean.class));
        e.highStakes = Boolean.TRUE.equals(row.get("high_stakes", Boolean.class));
        e.briefBasisHash = row.get("brief_basis_hash", String.class);
        e.materialHash = row.get("material_hash", String.class);
        e.promptCount = row.get("prompt_count", Integer.class);
        e.userFields = new ArrayList<>(Arrays.asList(row.get("user_fields", String[].class)));
        if (metadata.contains("target_payload")) {
            e.targetPayload = read(row.get("target_payload", Json.class), new TypeReference<Map<String, Object>>() { });
        }
        if (metadata.contains("context")) {
            e.context = readCached(row.get("context", Json.class), ActionContext.class, parsedContexts);
        }
        if (metadata.contains("material")) {
            e.material = read(row.get("material", Json.class), MaterialFacts.class);
        }
        if (metadata.contains("brief")) {
            e.brief = read(row.get("brief", Json.class), Brief.class);
        } else {
            // list reads: only whether a brief exists and when, which the timestamps tell
            Instant generated = instant(row, "brief_generated_at");
            e.brief = generated == null ? null : new Brief(null, List.of(), generated, instant(row, "brief_updated_at"));
        }
        return e;
    }

    private static Instant instant(Readable row, String column) {
        java.time.OffsetDateTime value = row.get(column, java.time.OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    private <T> T readCached(Json json, Class<T> type, Cache<String, T> cache) {
        if (json == null) {
            return null;
        }
        String text = json.asString();
        T parsed = cache.getIfPresent(text);
        if (parsed == null) {
            parsed = mapper.readValue(text, type);
            cache.put(text, parsed);
        }
        return parsed;
    }

    private <T> T read(Json json, Class<T> type) {
        return json == null ? null : mapper.readValue(json.asString(), type);
    }

    private <T> T read(Json json, TypeReference<T> type) {
        return json == null ? null : mapper.readValue(json.asString(), type);
    }
}
