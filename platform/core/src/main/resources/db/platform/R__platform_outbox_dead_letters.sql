-- Outbox dead letters (platform, issue 22): a row the broker refuses for good (too large, an
-- invalid or unauthorized topic, a topic that never appears while the broker acknowledges other
-- rows) is moved here with its reason, so that the rows behind it flow. Nothing replays a dead
-- letter automatically: to send one again, insert it back into outbox with a new id.
-- Repeatable and idempotent: databases migrated before it get it too (as R__platform_outbox_wake).
ALTER TABLE outbox ADD COLUMN IF NOT EXISTS attempts INT NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN IF NOT EXISTS last_error TEXT;

CREATE TABLE IF NOT EXISTS outbox_dead_letters (
    id          BIGINT      PRIMARY KEY,
    event_id    UUID        NOT NULL UNIQUE,
    topic       TEXT        NOT NULL,
    message_key TEXT,
    event_type  TEXT        NOT NULL,
    payload     TEXT        NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL,
    attempts    INT         NOT NULL,
    reason      TEXT        NOT NULL,
    parked_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- the relay checks that a key's rows start at its oldest unsent one
CREATE INDEX IF NOT EXISTS outbox_unsent_by_key ON outbox (topic, message_key, id) WHERE sent_at IS NULL;

-- retention (suite.retention.*) deletes by age
CREATE INDEX IF NOT EXISTS outbox_dead_letters_parked_at ON outbox_dead_letters (parked_at);
CREATE INDEX IF NOT EXISTS processed_events_processed_at ON processed_events (processed_at);
