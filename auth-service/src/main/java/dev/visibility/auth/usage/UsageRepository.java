package dev.visibility.auth.usage;

import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.UUID;

import dev.visibility.auth.accounts.Plan;
import dev.visibility.auth.config.Db;
import dev.visibility.platform.events.UsageRecorded;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** {@code usage_counters}: requests per project and calendar month (UTC). */
@Repository
class UsageRepository {

    private final JdbcClient jdbc;

    UsageRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** A project's status and request count for one period; empty when the project is unknown. */
    record ProjectUsageRow(UUID projectId, boolean paused, Plan plan, long requests) {
    }

    /**
     * Claims the record's eventId for {@code consumer} in {@code processed_events}; false when it
     * was claimed before. Run it in the transaction that applies the record.
     */
    boolean claim(String consumer, UUID eventId) {
        return jdbc.sql("INSERT INTO processed_events (consumer, event_id) VALUES (:consumer, :eventId) ON CONFLICT DO NOTHING")
                .param("consumer", consumer).param("eventId", eventId)
                .update() == 1;
    }

    /** Adds a record's requests to its project's month. */
    void add(UsageRecorded usage) {
        LocalDate period = YearMonth.from(usage.intervalStart().atOffset(ZoneOffset.UTC)).atDay(1);
        jdbc.sql("""
                INSERT INTO usage_counters (project_id, period_start, requests) VALUES (:project, :period, :requests)
                ON CONFLICT (project_id, period_start) DO UPDATE SET requests = usage_counters.requests + EXCLUDED.requests""")
                .param("project", UUID.fromString(usage.projectId())).param("period", period).param("requests", usage.requests())
                .update();
    }

    Optional<ProjectUsageRow> projectUsage(UUID projectId, LocalDate periodStart) {
        return jdbc.sql("""
                SELECT p.id, p.paused, a.plan, COALESCE(u.requests, 0) AS requests
                FROM projects p
                JOIN accounts a ON a.id = p.account_id
                LEFT JOIN usage_counters u ON u.project_id = p.id AND u.period_start = :period
                WHERE p.id = :project""")
                .param("project", projectId).param("period", periodStart)
                .query((row, n) -> new ProjectUsageRow(Db.uuid(row, "id"), row.getBoolean("paused"),
                        Plan.of(row.getString("plan")), row.getLong("requests")))
                .optional();
    }
}
