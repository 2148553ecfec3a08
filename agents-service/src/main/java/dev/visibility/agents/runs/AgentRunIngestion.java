package dev.visibility.agents.runs;

import java.time.Instant;
import java.util.UUID;

import dev.visibility.platform.consumer.PoisonRecord;
import dev.visibility.platform.events.AgentRunRecorded;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.databind.ObjectMapper;

/**
 * Applies an {@code agents.runs} record (in the consumer's transaction, with the claim of its
 * eventId): the run's state replaces the stored one only for a higher revision, so a late, older
 * record never rolls a run back. A run named in another project than its own is poison.
 */
@Component
class AgentRunIngestion {

    private final DatabaseClient db;
    private final ObjectMapper mapper;

    AgentRunIngestion(DatabaseClient db, ObjectMapper mapper) {
        this.db = db;
        this.mapper = mapper;
    }

    Mono<Void> apply(AgentRunRecorded run) {
        return db.sql("SELECT project_id FROM agent_runs WHERE id = :id FOR UPDATE")
                .bind("id", run.runId())
                .map(row -> row.get("project_id", UUID.class))
                .one()
                .flatMap(project -> project.equals(run.projectId()) ? Mono.just(true)
                        : Mono.<Boolean>error(new PoisonRecord("the run belongs to another project")))
                .defaultIfEmpty(false)
                .flatMap(exists -> upsert(run));
    }

    private Mono<Void> upsert(AgentRunRecorded run) {
        DatabaseClient.GenericExecuteSpec spec = db.sql("""
                INSERT INTO agent_runs (id, project_id, revision, status, review_state, workflow_key, schedule_occurrence_key,
                    created_at, started_at, completed_at, credits_used, usage, draft_output, evidence_block, definition)
                VALUES (:id, :project, :revision, :status, :review, :workflow, :occurrence, :createdAt, :startedAt, :completedAt,
                    :credits, CAST(:usage AS jsonb), CAST(:draft AS jsonb), CAST(:evidence AS jsonb), CAST(:definition AS jsonb))
                ON CONFLICT (id) DO UPDATE SET revision = EXCLUDED.revision, status = EXCLUDED.status,
                    review_state = EXCLUDED.review_state, workflow_key = EXCLUDED.workflow_key,
                    schedule_occurrence_key = EXCLUDED.schedule_occurrence_key, created_at = EXCLUDED.created_at,
                    started_at = EXCLUDED.started_at, completed_at = EXCLUDED.completed_at,
                    credits_used = EXCLUDED.credits_used, usage = EXCLUDED.usage, draft_output = EXCLUDED.draft_output,
                    evidence_block = EXCLUDED.evidence_block, definition = EXCLUDED.definition, updated_at = now()
                WHERE agent_runs.revision < EXCLUDED.revision""")
                .bind("id", run.runId())
                .bind("project", run.projectId())
                .bind("revision", run.revision())
                .bind("status", run.status())
                .bind("review", run.reviewState())
                .bind("workflow", run.workflowKey())
                .bind("createdAt", run.createdAt())
                .bind("credits", run.creditsUsed())
                .bind("definition", mapper.writeValueAsString(run.definition()));
        spec = nullable(spec, "occurrence", run.scheduleOccurrenceKey(), String.class);
        spec = nullable(spec, "startedAt", run.startedAt(), Instant.class);
        spec = nullable(spec, "completedAt", run.completedAt(), Instant.class);
        spec = nullable(spec, "usage", json(run.usage()), String.class);
        spec = nullable(spec, "draft", json(run.draftOutput()), String.class);
        spec = nullable(spec, "evidence", json(run.evidenceBlock()), String.class);
        return spec.then();
    }

    private String json(Object value) {
        return value == null ? null : mapper.writeValueAsString(value);
    }

    private static <T> DatabaseClient.GenericExecuteSpec nullable(DatabaseClient.GenericExecuteSpec spec, String name,
            T value, Class<T> type) {
        return value == null ? spec.bindNull(name, type) : spec.bind(name, value);
    }
}
