package dev.visibility.auth.usage;

import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.UUID;

import dev.visibility.auth.accounts.Plan;
import dev.visibility.platform.events.UsageRecorded;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Mono;

/** {@code usage_counters}: requests per project and calendar month (UTC). */
@Repository
class UsageRepository {

    private final DatabaseClient db;

    UsageRepository(DatabaseClient db) {
        this.db = db;
    }

    /** A project's status and request count for one period; empty when the project is unknown. */
    record ProjectUsageRow(UUID projectId, boolean paused, Plan plan, long requests) {
    }

    /**
     * Adds a record's requests to its project's month. Once per eventId: the platform's consumer
     * runs it in the transaction that claims the record's eventId ({@link UsageConsumer}).
     */
    Mono<Void> add(UsageRecorded usage) {
        LocalDate period = YearMonth.from(usage.intervalStart().atOffset(ZoneOffset.UTC)).atDay(1);
        return db.sql("""
                INSERT INTO usage_counters (project_id, period_start, requests) VALUES (:project, :period, :requests)
                ON CONFLICT (project_id, period_start) DO UPDATE SET requests = usage_counters.requests + EXCLUDED.requests""")
                .bind("project", UUID.fromString(usage.projectId())).bind("period", period).bind("requests", usage.requests())
                .then();
    }

    Mono<ProjectUsageRow> projectUsage(UUID projectId, LocalDate periodStart) {
        return db.sql("""
                SELECT p.id, p.paused, a.plan, COALESCE(u.requests, 0) AS requests
                FROM projects p
                JOIN accounts a ON a.id = p.account_id
                LEFT JOIN usage_counters u ON u.project_id = p.id AND u.period_start = :period
                WHERE p.id = :project""")
                .bind("project", projectId).bind("period", periodStart)
                .map(row -> new ProjectUsageRow(row.get("id", UUID.class), Boolean.TRUE.equals(row.get("paused", Boolean.class)),
                        Plan.of(row.get("plan", String.class)), row.get("requests", Long.class)))
                .one();
    }
}
