-- Transactional outbox (platform): rows are written in the caller's transaction and published
-- to Kafka by the relay, which marks them sent. Unsent rows survive any crash.
CREATE TABLE outbox (
    id          BIGSERIAL PRIMARY KEY,
    event_id    UUID        NOT NULL UNIQUE,
    topic       TEXT        NOT NULL,
    message_key TEXT,
    event_type  TEXT        NOT NULL,
    payload     TEXT        NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    sent_at     TIMESTAMPTZ
);

CREATE INDEX outbox_unsent ON outbox (id) WHERE sent_at IS NULL;
CREATE INDEX outbox_sent_at ON outbox (sent_at) WHERE sent_at IS NOT NULL;
