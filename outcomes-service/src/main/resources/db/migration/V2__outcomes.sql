-- Actions as the action events on public.events describe them: the title the ledger shows and the
-- time the action was completed (moved to live), which selects E7's emptyState cohort.
CREATE TABLE actions (
    project_id   UUID        NOT NULL,
    action_id    UUID        NOT NULL,
    title        TEXT,
    status       TEXT,
    completed_at TIMESTAMPTZ,
    event_at     TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (project_id, action_id)
);
CREATE INDEX actions_completed ON actions (project_id, completed_at) WHERE completed_at IS NOT NULL;

-- One row per intervention: its result and flags as of its latest measurements, and its 14-day
-- (canonical) measurement as received, from which the ledger item is rendered.
CREATE TABLE interventions (
    intervention_id UUID             PRIMARY KEY,
    project_id      UUID             NOT NULL,
    action_id       UUID             NOT NULL,
    channel         TEXT             NOT NULL,
    action_type     TEXT,
    intervened_at   TIMESTAMPTZ      NOT NULL,
    intervened_on   DATE             NOT NULL,
    result          TEXT             NOT NULL,
    in_flight       BOOLEAN          NOT NULL,
    blind           BOOLEAN          NOT NULL,
    unmatched_url   BOOLEAN          NOT NULL,
    sensor_gap      BOOLEAN          NOT NULL,
    measured_at     TIMESTAMPTZ      NOT NULL,
    impact_score    DOUBLE PRECISION,
    measured_effect DOUBLE PRECISION,
    canonical       JSONB
);
-- the ledger's keyset order (newest intervention first), unfiltered and by result
CREATE INDEX interventions_ledger ON interventions (project_id, intervened_at DESC, intervention_id DESC);
CREATE INDEX interventions_ledger_result ON interventions (project_id, result, intervened_at DESC, intervention_id DESC);
CREATE INDEX interventions_action ON interventions (project_id, action_id);

-- The latest measurement of each window of each intervention, with what it contributes to the rollups.
CREATE TABLE measurements (
    intervention_id UUID             NOT NULL,
    window_days     INTEGER          NOT NULL,
    project_id      UUID             NOT NULL,
    event_id        UUID             NOT NULL,
    measured_at     TIMESTAMPTZ      NOT NULL,
    in_flight       BOOLEAN          NOT NULL,
    blind           BOOLEAN          NOT NULL,
    unmatched_url   BOOLEAN          NOT NULL,
    sensor_gap      BOOLEAN          NOT NULL,
    window_end_on   DATE             NOT NULL,
    cit_measured    BOOLEAN          NOT NULL,
    cit_delta       DOUBLE PRECISION NOT NULL,
    presence_delta  DOUBLE PRECISION NOT NULL,
    af_measured     BOOLEAN          NOT NULL,
    af_delta        DOUBLE PRECISION NOT NULL,
    conv_covered    BOOLEAN          NOT NULL,
    conv_delta      DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (intervention_id, window_days)
);

-- Rollups, kept at ingestion (a replaced measurement is subtracted, its successor added).
-- E2 scoreboard and result-filter counts per project and intervention day.
CREATE TABLE scoreboard_daily (
    project_id       UUID             NOT NULL,
    day              DATE             NOT NULL,
    improved         INTEGER          NOT NULL DEFAULT 0,
    mixed            INTEGER          NOT NULL DEFAULT 0,
    no_clear_change  INTEGER          NOT NULL DEFAULT 0,
    declined         INTEGER          NOT NULL DEFAULT 0,
    still_measuring  INTEGER          NOT NULL DEFAULT 0,
    unmeasured       INTEGER          NOT NULL DEFAULT 0,
    in_flight        INTEGER          NOT NULL DEFAULT 0,
    blind            INTEGER          NOT NULL DEFAULT 0,
    unmatched_url    INTEGER          NOT NULL DEFAULT 0,
    sensor_gap       INTEGER          NOT NULL DEFAULT 0,
    citations_before DOUBLE PRECISION NOT NULL DEFAULT 0,
    citations_after  DOUBLE PRECISION NOT NULL DEFAULT 0,
    PRIMARY KEY (project_id, day)
);

-- E2 impact windows per project, intervention day and window length.
CREATE TABLE impact_daily (
    project_id     UUID             NOT NULL,
    day            DATE             NOT NULL,
    window_days    INTEGER          NOT NULL,
    in_flight      INTEGER          NOT NULL DEFAULT 0,
    cit_measured   INTEGER          NOT NULL DEFAULT 0,
    cit_delta      DOUBLE PRECISION NOT NULL DEFAULT 0,
    presence_delta DOUBLE PRECISION NOT NULL DEFAULT 0,
    af_measured    INTEGER          NOT NULL DEFAULT 0,
    af_delta       DOUBLE PRECISION NOT NULL DEFAULT 0,
    PRIMARY KEY (project_id, day, window_days)
);

-- E2 attributed conversions per project, day the window closed and window length (30 and 90).
CREATE TABLE conversions_daily (
    project_id  UUID             NOT NULL,
    day         DATE             NOT NULL,
    window_days INTEGER          NOT NULL,
    covered     INTEGER          NOT NULL DEFAULT 0,
    conversions DOUBLE PRECISION NOT NULL DEFAULT 0,
    PRIMARY KEY (project_id, day, window_days)
);

-- E7: closed 14-day improvements per project, day the result became available, channel and action type.
CREATE TABLE what_works_daily (
    project_id        UUID             NOT NULL,
    day               DATE             NOT NULL,
    channel           TEXT             NOT NULL,
    action_type       TEXT             NOT NULL,
    improved          INTEGER          NOT NULL DEFAULT 0,
    impact_sum        DOUBLE PRECISION NOT NULL DEFAULT 0,
    effect_sum        DOUBLE PRECISION NOT NULL DEFAULT 0,
    last_available_at TIMESTAMPTZ,
    PRIMARY KEY (project_id, day, channel, action_type)
);
