-- Consumer de-duplication (platform): an eventId is processed once per consumer, recorded in
-- the same transaction as the consumer's own changes.
CREATE TABLE processed_events (
    consumer     TEXT        NOT NULL,
    event_id     UUID        NOT NULL,
    processed_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (consumer, event_id)
);
