-- Requests per project and calendar month (UTC), summed from usage.requests (spec 5.7).
-- No foreign key to projects: a count for a project that is unknown here must not block the
-- consumer; it is simply never read.
CREATE TABLE usage_counters (
    project_id   UUID   NOT NULL,
    period_start DATE   NOT NULL,
    requests     BIGINT NOT NULL DEFAULT 0 CHECK (requests >= 0),
    PRIMARY KEY (project_id, period_start)
);
