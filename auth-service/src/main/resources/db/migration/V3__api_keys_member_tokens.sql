-- API keys (spec 5.1-5.5): only the SHA-256 of the key (lowercase hex) and a short visible
-- prefix are stored, never the key. scopes NULL means "all default scopes"; an array (possibly
-- empty) means the key is narrowed to exactly that set.
CREATE TABLE api_keys (
    id         UUID        PRIMARY KEY,
    project_id UUID        NOT NULL REFERENCES projects (id),
    name       TEXT        NOT NULL,
    prefix     TEXT        NOT NULL,
    key_hash   TEXT        NOT NULL CHECK (key_hash ~ '^[0-9a-f]{64}$'),
    scopes     TEXT[],
    created_by UUID        REFERENCES members (id),
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    revoked_at TIMESTAMPTZ
);

-- the gateway's lookup on a cache miss: one index probe
CREATE UNIQUE INDEX api_keys_hash ON api_keys (key_hash);
CREATE INDEX api_keys_project ON api_keys (project_id, created_at DESC);

-- Opaque access tokens of signed-in members (the account API), stored hashed like API keys.
CREATE TABLE member_tokens (
    id         UUID        PRIMARY KEY,
    member_id  UUID        NOT NULL REFERENCES members (id),
    token_hash TEXT        NOT NULL CHECK (token_hash ~ '^[0-9a-f]{64}$'),
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at TIMESTAMPTZ NOT NULL,
    revoked_at TIMESTAMPTZ
);

CREATE UNIQUE INDEX member_tokens_hash ON member_tokens (token_hash);
