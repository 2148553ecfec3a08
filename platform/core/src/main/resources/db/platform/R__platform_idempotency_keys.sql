-- Idempotency keys (platform, issue 22): the first answer to a POST sent with an Idempotency-Key,
-- per caller and key, replayed for 24 hours to the same request; the body is encrypted (AES-GCM,
-- IdempotencyKeys). Repeatable and idempotent, as the other platform tables added after 0.x.
CREATE TABLE IF NOT EXISTS idempotency_keys (
    scope         TEXT        NOT NULL,
    idem_key      TEXT        NOT NULL,
    request_hash  TEXT        NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    completed_at  TIMESTAMPTZ,
    status        INT,
    content_type  TEXT,
    body          BYTEA,
    PRIMARY KEY (scope, idem_key)
);
CREATE INDEX IF NOT EXISTS idempotency_keys_created_at ON idempotency_keys (created_at);
