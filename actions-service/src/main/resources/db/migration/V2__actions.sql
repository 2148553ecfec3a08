-- Actions and recommendations (spec 2.4). One row per action; a recommendation is an action whose
-- fingerprint_key names the producer's recommendation. Nested spec objects that are read whole
-- (opportunity contract, context evidence, brief) are jsonb; everything a query filters, orders
-- or counts on is a column.
CREATE TABLE actions (
    id                   UUID PRIMARY KEY,
    project_id           UUID        NOT NULL,
    account_id           TEXT,
    origin               TEXT        NOT NULL,             -- user | system
    fingerprint_key      TEXT,                             -- producer's recommendation id; null for user-created
    title                TEXT        NOT NULL,
    description          TEXT        NOT NULL,
    channels             TEXT[]      NOT NULL,
    priority             TEXT        NOT NULL,
    status               TEXT        NOT NULL,
    -- E3 without a status filter lists suggested, then accepted, live, archived
    status_order         SMALLINT GENERATED ALWAYS AS (CASE status WHEN 'suggested' THEN 0 WHEN 'accepted' THEN 1
                                                   WHEN 'live' THEN 2 ELSE 3 END) STORED,
    blocked              BOOLEAN     NOT NULL DEFAULT false,
    assigned_to          UUID,
    owner_name           TEXT,
    opportunity          JSONB,                            -- contract without percentile and pool size
    family               TEXT,                             -- opportunity.family, the percentile pool
    percentile_status    TEXT,                             -- ranked | insufficient_reach
    percentile           DOUBLE PRECISION,
    percentile_pool_size INTEGER,                          -- null on records from before pools were kept
    score                DOUBLE PRECISION,                 -- internal tie-break, never exposed (spec 2.4)
    effort_score         DOUBLE PRECISION,
    portfolio_category   TEXT,
    portfolio_rank       INTEGER,
    steered_from_page_url TEXT,
    follow_up_of_id      UUID,
    follow_up_of_title   TEXT,
    follow_up_of_shipped_at TIMESTAMPTZ,
    created_at           TIMESTAMPTZ NOT NULL,
    updated_at           TIMESTAMPTZ NOT NULL,
    shipped_at           TIMESTAMPTZ,                      -- when the action last went live
    expected_impact      TEXT,
    primary_cta_kind     TEXT,
    target_label         TEXT,
    target_type          TEXT,
    target_payload       JSONB,
    what_changed         TEXT,
    why_now              TEXT,
    is_command_center    BOOLEAN     NOT NULL DEFAULT false,
    context              JSONB,                            -- {topEvidence[], winningPages[]}
    bucket               TEXT,
    suggestion_status    TEXT        NOT NULL,             -- open | adopted | dismissed | withdrawn
    hidden               BOOLEAN     NOT NULL DEFAULT false,
    acted_on             BOOLEAN     NOT NULL DEFAULT false,
    high_stakes          BOOLEAN     NOT NULL DEFAULT false,
    brief                JSONB,
    brief_generated_at   TIMESTAMPTZ,
    brief_updated_at     TIMESTAMPTZ,
    brief_basis_hash     TEXT,                             -- material hash the brief was written for
    material             JSONB,                            -- facts compared for material change (spec 6)
    material_hash        TEXT,
    prompt_count         INTEGER     NOT NULL DEFAULT 0,
    user_fields          TEXT[]      NOT NULL DEFAULT '{}' -- fields the team set; producers no longer overwrite them
);

-- E3: one index serves every status filter and both orders (rank ascending nulls last, then score,
-- creation time, id), so a page is an index range scan and a count is an index-only scan.
CREATE INDEX actions_list ON actions (project_id, status_order, portfolio_rank ASC NULLS LAST,
    score DESC NULLS LAST, created_at, id);
CREATE UNIQUE INDEX actions_fingerprint ON actions (project_id, fingerprint_key) WHERE fingerprint_key IS NOT NULL;
-- percentile pools: rankable open suggestions of one signal family
CREATE INDEX actions_pool ON actions (project_id, family, score) WHERE percentile_status = 'ranked'
    AND status = 'suggested' AND NOT hidden;
CREATE INDEX actions_follow_up ON actions (follow_up_of_id) WHERE follow_up_of_id IS NOT NULL;

-- E6: prompts an action is linked to by its stored evidence (citation-loss cells).
CREATE TABLE action_prompts (
    project_id UUID NOT NULL,
    prompt_id  UUID NOT NULL,
    action_id  UUID NOT NULL REFERENCES actions (id) ON DELETE CASCADE,
    PRIMARY KEY (project_id, prompt_id, action_id)
);
CREATE INDEX action_prompts_action ON action_prompts (action_id);

-- The events history of an action (…/actions/{actionId}/events): who changed what and when.
CREATE TABLE action_history (
    id             BIGSERIAL PRIMARY KEY,
    action_id      UUID        NOT NULL REFERENCES actions (id) ON DELETE CASCADE,
    project_id     UUID        NOT NULL,
    occurred_at    TIMESTAMPTZ NOT NULL,
    kind           TEXT        NOT NULL,                   -- created | updated | recommendation_updated | withdrawn
    origin         TEXT        NOT NULL,
    actor_type     TEXT        NOT NULL,
    user_id        TEXT,
    key_id         TEXT,
    client_id      TEXT,
    changed_fields TEXT[]      NOT NULL,
    changes        JSONB       NOT NULL                    -- [{field, from, to}]
);
CREATE INDEX action_history_action ON action_history (action_id, id DESC);

-- Suggestions withdrawn before anyone acted on them are deleted; their fingerprint is kept so
-- that one reappearing unchanged is classified as needing only a fresh brief.
CREATE TABLE withdrawn_recommendations (
    project_id      UUID        NOT NULL,
    fingerprint_key TEXT        NOT NULL,
    material_hash   TEXT        NOT NULL,
    withdrawn_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (project_id, fingerprint_key)
);

-- Projects whose portfolio ranks and percentile pools must be recomputed (written in the
-- transaction of the change, worked off by RankMaintainer).
CREATE TABLE rank_pending (
    project_id UUID PRIMARY KEY,
    since      TIMESTAMPTZ NOT NULL DEFAULT now()
);
