-- Tracking runs (topic tracking.runs): one row per run, idempotent by run id. The metrics are
-- computed once at ingestion (README, "visibilityScore") and never change afterwards.
CREATE TABLE tracking_runs (
    run_id               UUID         PRIMARY KEY,
    project_id           UUID         NOT NULL,
    account_id           TEXT         NOT NULL,
    final_status         TEXT         NOT NULL,
    captured_on          DATE         NOT NULL,
    started_at           TIMESTAMPTZ,
    completed_at         TIMESTAMPTZ  NOT NULL,
    sample_count         INTEGER      NOT NULL,
    visible_sample_count INTEGER      NOT NULL,
    citation_count       INTEGER      NOT NULL,
    brand_mention_count  INTEGER      NOT NULL,
    visibility_score     NUMERIC(4,1) NOT NULL,
    received_at          TIMESTAMPTZ  NOT NULL DEFAULT now()
);

-- "latest" and "previous" of a project follow capture order, never arrival order.
CREATE INDEX tracking_runs_capture_order ON tracking_runs (project_id, captured_on, completed_at, run_id)
    WHERE final_status = 'completed';

-- Retained AI responses: one row per sample (execution) of a tracking run, with its captured ads.
-- answer_text is cleared once retain_until has passed; the row itself (and its ads) stays.
CREATE TABLE responses (
    execution_id        UUID        PRIMARY KEY,
    run_id              UUID        NOT NULL REFERENCES tracking_runs (run_id),
    project_id          UUID        NOT NULL,
    prompt_id           UUID        NOT NULL,
    platform            TEXT        NOT NULL,
    prompt_text         TEXT,
    answer_text         TEXT,
    completed_at        TIMESTAMPTZ NOT NULL,
    retain_until        TIMESTAMPTZ NOT NULL,
    ad_capture_measured BOOLEAN     NOT NULL,
    ads                 JSONB       NOT NULL,
    ad_count            INTEGER     NOT NULL,
    citations           JSONB       NOT NULL,
    brand_mentions      JSONB       NOT NULL,
    brand_visible       BOOLEAN     NOT NULL
);

CREATE INDEX responses_recent ON responses (project_id, completed_at DESC, execution_id DESC);
CREATE INDEX responses_retained ON responses (retain_until) WHERE answer_text IS NOT NULL;

-- Agent-picks (topic agentpicks.runs). Raw facts are stored as recorded; what E1 may show is
-- decided when reading (withholding rules of E1 rule 4).
CREATE TABLE agentpicks_tests (
    test_id    UUID        PRIMARY KEY,
    project_id UUID        NOT NULL,
    account_id TEXT        NOT NULL,
    kind       TEXT        NOT NULL,
    status     TEXT        NOT NULL,
    status_at  TIMESTAMPTZ NOT NULL
);

CREATE TABLE agentpicks_runs (
    run_id             UUID        PRIMARY KEY,
    test_id            UUID        NOT NULL REFERENCES agentpicks_tests (test_id),
    project_id         UUID        NOT NULL,
    account_id         TEXT        NOT NULL,
    revision           BIGINT      NOT NULL,
    agent              TEXT        NOT NULL,
    model              TEXT        NOT NULL,
    repetition         INTEGER     NOT NULL,
    status             TEXT        NOT NULL,
    created_at         TIMESTAMPTZ NOT NULL,
    started_at         TIMESTAMPTZ,
    completed_at       TIMESTAMPTZ,
    early_stopped      BOOLEAN     NOT NULL,
    wall_ms            BIGINT,
    error_text         TEXT,
    has_error          BOOLEAN     NOT NULL,
    environment        JSONB,
    request_text       TEXT,
    intent             TEXT,
    job_text           TEXT,
    classifier_version TEXT,
    agent_timeout_sec  DOUBLE PRECISION,
    classification     JSONB,
    trail_complete     BOOLEAN     NOT NULL DEFAULT false,
    updated_at         TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE INDEX agentpicks_runs_owner ON agentpicks_runs (project_id, test_id);

-- Evidence is append-only; E1 pages it by (seq, id) with a keyset on the primary key.
CREATE TABLE agentpicks_evidence (
    run_id      UUID             NOT NULL REFERENCES agentpicks_runs (run_id),
    seq         BIGINT           NOT NULL,
    id          UUID             NOT NULL,
    kind        TEXT             NOT NULL,
    url         TEXT,
    status_code INTEGER,
    recorded_at TIMESTAMPTZ      NOT NULL,
    observed_at DOUBLE PRECISION,
    queries     JSONB            NOT NULL,
    path        TEXT,
    packages    JSONB            NOT NULL,
    source      TEXT,
    method      TEXT,
    exit_code   INTEGER,
    failed      BOOLEAN,
    command     TEXT,
    text        TEXT,
    error_text  TEXT,
    PRIMARY KEY (run_id, seq, id)
);

CREATE UNIQUE INDEX agentpicks_evidence_id ON agentpicks_evidence (id);
