package dev.visibility.agents.runs;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import dev.visibility.platform.events.AgentRunRecorded;
import io.r2dbc.spi.Readable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.ObjectMapper;

/** E8's read: one run of the project by primary key, shaped as spec 2.9. */
@Component
class AgentRuns {

    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };

    private final DatabaseClient db;
    private final ObjectMapper mapper;

    AgentRuns(DatabaseClient db, ObjectMapper mapper) {
        this.db = db;
        this.mapper = mapper;
    }

    Mono<AgentRunView> find(UUID projectId, UUID runId) {
        return db.sql("""
                SELECT id, status, review_state, workflow_key, schedule_occurrence_key, created_at, started_at, completed_at,
                    credits_used, usage::text AS usage, draft_output::text AS draft_output,
                    evidence_block::text AS evidence_block, definition::text AS definition
                FROM agent_runs WHERE id = :id AND project_id = :project""")
                .bind("id", runId)
                .bind("project", projectId)
                .map(this::view)
                .one();
    }

    private AgentRunView view(Readable row) {
        boolean reviewed = AgentRunRecorded.REVIEW_COMPLETED.equals(row.get("review_state", String.class));
        String evidence = row.get("evidence_block", String.class);
        return new AgentRunView(row.get("id", UUID.class), row.get("status", String.class),
                row.get("workflow_key", String.class), row.get("schedule_occurrence_key", String.class),
                row.get("created_at", Instant.class), row.get("started_at", Instant.class),
                row.get("completed_at", Instant.class), row.get("credits_used", BigDecimal.class),
                object(row.get("usage", String.class)),
                reviewed ? object(row.get("draft_output", String.class)) : null,
                evidence == null ? null : mapper.readValue(evidence, AgentRunRecorded.Evidence.class),
                mapper.readValue(row.get("definition", String.class), AgentRunRecorded.Definition.class));
    }

    private Map<String, Object> object(String json) {
        return json == null ? null : mapper.readValue(json, OBJECT);
    }
}
