package dev.visibility.outcomes.actions;

import java.util.UUID;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Keeps, per action, the title and the time it was completed (its status became {@code live}) from
 * the action events on {@code public.events}. An event older than the stored one changes nothing;
 * an update event without a title keeps the stored title; moving away from {@code live} clears the
 * completion time, moving to {@code live} again sets it anew.
 */
@Component
public class ActionEvents {

    public static final String COMPLETED_STATUS = "live";

    private final DatabaseClient db;

    public ActionEvents(DatabaseClient db) {
        this.db = db;
    }

    public Mono<String> apply(ActionEventRecord e) {
        if (!e.isActionEvent()) {
            return Mono.just("not an action event");
        }
        UUID project = UUID.fromString(e.projectId());
        String title = blankToNull(e.data().action().title());
        String status = blankToNull(e.data().action().status());
        DatabaseClient.GenericExecuteSpec spec = db.sql("""
                INSERT INTO actions (project_id, action_id, title, status, completed_at, event_at)
                VALUES (:project, :action, :title, :status, CASE WHEN :status = 'live' THEN CAST(:at AS timestamptz) END, :at)
                ON CONFLICT (project_id, action_id) DO UPDATE SET
                    title = coalesce(EXCLUDED.title, actions.title),
                    status = coalesce(EXCLUDED.status, actions.status),
                    completed_at = CASE
                        WHEN EXCLUDED.status IS NULL THEN actions.completed_at
                        WHEN EXCLUDED.status <> 'live' THEN NULL
                        WHEN actions.status = 'live' AND actions.completed_at IS NOT NULL THEN actions.completed_at
                        ELSE EXCLUDED.event_at END,
                    event_at = EXCLUDED.event_at
                WHERE actions.event_at <= EXCLUDED.event_at""")
                .bind("project", project).bind("action", e.actionId()).bind("at", e.timestamp());
        spec = title == null ? spec.bindNull("title", String.class) : spec.bind("title", title);
        spec = status == null ? spec.bindNull("status", String.class) : spec.bind("status", status);
        return spec.fetch().rowsUpdated().map(n -> n > 0 ? "applied" : "older than the stored event");
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
