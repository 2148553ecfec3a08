-- Managed-agent runs (E8): the state of the highest revision of each run, as agents.runs carried
-- it. E8 reads one row by primary key; usage, draft output, evidence and definition are kept as
-- the runner sent them (the specification does not show their contents) and shaped by E8.
CREATE TABLE agent_runs (
    id                      UUID        PRIMARY KEY,
    project_id              UUID        NOT NULL,
    revision                BIGINT      NOT NULL CHECK (revision >= 0),
    status                  TEXT        NOT NULL,
    review_state            TEXT        NOT NULL,
    workflow_key            TEXT        NOT NULL,
    schedule_occurrence_key TEXT,
    created_at              TIMESTAMPTZ NOT NULL,
    started_at              TIMESTAMPTZ,
    completed_at            TIMESTAMPTZ,
    credits_used            NUMERIC     NOT NULL CHECK (credits_used >= 0),
    usage                   JSONB,
    draft_output            JSONB,
    evidence_block          JSONB,
    definition              JSONB       NOT NULL,
    updated_at              TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Chat threads of the assistant. A delete (E10) sets deleted_at: the thread leaves its owner's
-- history and E9, and is never brought back by a later record; the row stays for billing and audit.
CREATE TABLE assistant_threads (
    id              UUID        PRIMARY KEY,
    project_id      UUID        NOT NULL,
    owner_member_id UUID        NOT NULL,
    title           TEXT,
    created_at      TIMESTAMPTZ NOT NULL,
    deleted_at      TIMESTAMPTZ,
    deleted_by      TEXT
);

-- the owner's history: their threads that are not deleted, newest first
CREATE INDEX assistant_threads_history ON assistant_threads (project_id, owner_member_id, created_at DESC)
    WHERE deleted_at IS NULL;

-- Specialist handoffs offered in a thread (spec 2.10). E9 lists the pending ones not yet expired.
CREATE TABLE thread_handoffs (
    id               UUID        PRIMARY KEY,
    thread_id        UUID        NOT NULL,
    project_id       UUID        NOT NULL,
    agent            TEXT        NOT NULL,
    agent_key        TEXT        NOT NULL,
    estimate_credits NUMERIC     NOT NULL CHECK (estimate_credits >= 0),
    expires_at       TIMESTAMPTZ NOT NULL,
    instructions     TEXT        NOT NULL,
    state            TEXT        NOT NULL CHECK (state IN ('pending', 'accepted', 'expired', 'cancelled')),
    offered_at       TIMESTAMPTZ NOT NULL,
    state_changed_at TIMESTAMPTZ
);

CREATE INDEX thread_handoffs_pending ON thread_handoffs (thread_id, offered_at, id) WHERE state = 'pending';

-- Billing: credits the assistant used in a thread, one row per agents.threads credits_used record.
-- Never deleted or changed by a thread delete.
CREATE TABLE thread_credits (
    event_id    UUID        PRIMARY KEY,
    project_id  UUID        NOT NULL,
    thread_id   UUID        NOT NULL,
    credits     NUMERIC     NOT NULL CHECK (credits >= 0),
    occurred_at TIMESTAMPTZ NOT NULL
);

CREATE INDEX thread_credits_thread ON thread_credits (project_id, thread_id);

-- Audit: what happened to a thread and who did it (the assistant's records, and deletes through
-- the API with the member and key). Append-only; never deleted or changed by a thread delete.
CREATE TABLE thread_audit (
    id          UUID        PRIMARY KEY,
    project_id  UUID        NOT NULL,
    thread_id   UUID        NOT NULL,
    action      TEXT        NOT NULL,
    actor       TEXT,
    key_id      TEXT,
    occurred_at TIMESTAMPTZ NOT NULL,
    recorded_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE INDEX thread_audit_thread ON thread_audit (project_id, thread_id, occurred_at);
