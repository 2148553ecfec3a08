-- traffic-service: rollups of traffic.hits (E4), sensor state, 404 aggregates and their materialized
-- clusters (E11), adoption samples and project domains (E5), the projects' traffic configuration.

-- A project's traffic configuration (traffic.config): the configuredAt of the one in force.
CREATE TABLE project_config (
    project_id    uuid PRIMARY KEY,
    configured_at timestamptz NOT NULL
);

-- Every domain a project named, in its configuration or in an adoption sample (E5 domains[]).
-- The configuration decides is_primary for the domains it lists (configured); a sample decides it
-- only for a domain no configuration lists.
CREATE TABLE domains (
    id         uuid        NOT NULL PRIMARY KEY,
    project_id uuid        NOT NULL,
    domain     text        NOT NULL,
    is_primary boolean     NOT NULL,
    configured boolean     NOT NULL,
    UNIQUE (project_id, domain)
);

-- One row per sensor source of a project: configured ones (traffic.config) and any that sent hits.
-- last_accepted_at: observedAt of the latest accepted hit (never later than its acceptance).
CREATE TABLE sensor_sources (
    project_id             uuid          NOT NULL,
    source                 text          NOT NULL,
    configured             boolean       NOT NULL DEFAULT false,
    kind                   text,
    freshness_window_hours numeric(8, 2),
    configured_domains     text[]        NOT NULL DEFAULT '{}',
    last_accepted_at       timestamptz,
    PRIMARY KEY (project_id, source)
);

-- The hostnames each source sent hits for, with the latest accepted hit of each.
CREATE TABLE sensor_hostnames (
    project_id       uuid        NOT NULL,
    source           text COLLATE "C"        NOT NULL,
    hostname         text COLLATE "C"        NOT NULL,
    last_accepted_at timestamptz NOT NULL,
    PRIMARY KEY (project_id, source, hostname)
);

-- The rollup tables are updated in place by every batch: their key text compares bytewise (COLLATE
-- "C", cheaper than the database's collation) and their pages keep room (fillfactor) so that
-- updates that change no key stay on their page (HOT) without touching the index.

-- Per-day rollups of traffic.hits per scope. A scope is (hostname, prefix): hostname '' is the
-- whole project (prefix '/'); prefix '/' is the whole hostname; '/docs' is /docs and everything
-- below it (segment boundaries; up to 16 segments). Each hit counts once in every scope it lies in.
-- Event columns count hits by their day. Session columns are histograms: sessions counts the
-- sessions of the scope whose LAST hit in the scope was on that day (bot_sessions: last bot hit,
-- referral_sessions: last referral hit), so that the distinct sessions with a hit on or after day D
-- are the sum of the rows from D on: an exact distinct count over a rolling window, from at most
-- 91 rows (see traffic_sessions).
CREATE TABLE traffic_days (
    project_id        uuid   NOT NULL,
    hostname          text COLLATE "C"   NOT NULL,
    prefix            text COLLATE "C"   NOT NULL,
    day               date   NOT NULL,
    total_events      bigint NOT NULL DEFAULT 0,
    bot_events        bigint NOT NULL DEFAULT 0,
    referral_events   bigint NOT NULL DEFAULT 0,
    sessions          bigint NOT NULL DEFAULT 0,
    bot_sessions      bigint NOT NULL DEFAULT 0,
    referral_sessions bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (project_id, hostname, prefix, day)
) WITH (fillfactor = 70);

-- The last day each session had a hit in each scope (any hit, a bot hit, a referral hit). When a
-- batch moves a session's last day, the session leaves the old day's histogram row and joins the
-- new one's (traffic_days). Rows whose last day left the longest window are removed.
CREATE TABLE traffic_sessions (
    project_id        uuid NOT NULL,
    hostname          text COLLATE "C" NOT NULL,
    prefix            text COLLATE "C" NOT NULL,
    session_id        text COLLATE "C" NOT NULL,
    last_day          date NOT NULL,
    last_bot_day      date,
    last_referral_day date,
    PRIMARY KEY (project_id, hostname, prefix, session_id)
) WITH (fillfactor = 70);
CREATE INDEX traffic_sessions_last_day ON traffic_sessions (last_day);

-- 404s per day, hostname, path (as observed, without query) and crawler ('' for referred visitors):
-- what E11's materializer clusters. Kept for two windows (the current and the prior one).
CREATE TABLE not_found_days (
    project_id uuid   NOT NULL,
    day        date   NOT NULL,
    hostname   text COLLATE "C"   NOT NULL,
    path       text COLLATE "C"   NOT NULL,
    bot_name   text COLLATE "C"   NOT NULL,
    requests   bigint NOT NULL,
    PRIMARY KEY (project_id, day, hostname, path, bot_name)
) WITH (fillfactor = 70);

-- E11: the latest materialization per project. clusters holds the computed cluster records of the
-- last successful run; a failed run keeps them and records its error.
CREATE TABLE not_found_materializations (
    project_id    uuid        PRIMARY KEY,
    status        text        NOT NULL,
    window_start  date,
    window_end    date,
    completed_at  timestamptz,
    attempted_at  timestamptz NOT NULL,
    last_error    text,
    cluster_count integer     NOT NULL DEFAULT 0,
    request_count bigint      NOT NULL DEFAULT 0,
    clusters      jsonb       NOT NULL DEFAULT '[]'::jsonb
);

-- adoption.metrics: one sample per (domain, metric, source, capturedAt).
CREATE TABLE adoption_samples (
    project_id  uuid          NOT NULL,
    domain      text          NOT NULL,
    metric      text          NOT NULL,
    source      text          NOT NULL,
    captured_at timestamptz   NOT NULL,
    value       numeric       NOT NULL,
    PRIMARY KEY (project_id, captured_at, domain, metric, source)
);
