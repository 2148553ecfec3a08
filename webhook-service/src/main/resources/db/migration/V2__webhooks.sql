-- Webhook subscriptions (spec 2.13, E13-E16). The signing secret is needed in clear to sign, so it
-- is stored encrypted with AES-GCM (key from suite.webhook.secret-key), bound to the row's id.
CREATE TABLE subscriptions (
    id                UUID        PRIMARY KEY,
    project_id        UUID        NOT NULL,
    account_id        TEXT,
    url               TEXT        NOT NULL,
    events            TEXT[]      NOT NULL,
    is_active         BOOLEAN     NOT NULL DEFAULT TRUE,
    secret_ciphertext BYTEA       NOT NULL,
    created_at        TIMESTAMPTZ NOT NULL,
    secret_rotated_at TIMESTAMPTZ,
    deactivated_at    TIMESTAMPTZ
);

CREATE INDEX subscriptions_project_active ON subscriptions (project_id, created_at, id) WHERE is_active;

-- One row per public event that matched at least one subscription: the delivery body (the
-- envelope of spec 6.1), serialized once; these exact characters (UTF-8) are sent and signed.
CREATE TABLE events (
    event_id    UUID        PRIMARY KEY,
    project_id  UUID        NOT NULL,
    event       TEXT        NOT NULL,
    body        TEXT        NOT NULL,
    received_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- One row per (event, subscription), plus one per redelivery a user asks for. The id is the
-- X-Service-Delivery header, stable across the retries of the delivery.
CREATE TABLE deliveries (
    id              UUID        PRIMARY KEY,
    subscription_id UUID        NOT NULL REFERENCES subscriptions (id),
    event_id        UUID        NOT NULL REFERENCES events (event_id),
    redelivery_of   UUID        REFERENCES deliveries (id),
    state           TEXT        NOT NULL DEFAULT 'pending'
                                CHECK (state IN ('pending', 'succeeded', 'failed', 'cancelled')),
    attempt_count   INTEGER     NOT NULL DEFAULT 0,
    created_at      TIMESTAMPTZ NOT NULL,
    last_attempt_at TIMESTAMPTZ
);

-- the fan-out creates at most one delivery per event and subscription, however often it runs,
-- and finds the deliveries of the events it handles again
CREATE UNIQUE INDEX deliveries_one_per_event ON deliveries (subscription_id, event_id) WHERE redelivery_of IS NULL;
CREATE INDEX deliveries_by_event ON deliveries (event_id) WHERE redelivery_of IS NULL;
-- the delivery log: newest first, optionally by state (keyset paging on created_at, id)
CREATE INDEX deliveries_log ON deliveries (subscription_id, created_at DESC, id DESC);
CREATE INDEX deliveries_log_by_state ON deliveries (subscription_id, state, created_at DESC, id DESC);

-- Every attempt of a delivery (spec 6.4.3): when, its number, the HTTP status (null when no
-- answer came), how long it took and, for failures, the class of error.
CREATE TABLE delivery_attempts (
    delivery_id UUID        NOT NULL REFERENCES deliveries (id),
    attempt     INTEGER     NOT NULL,
    at          TIMESTAMPTZ NOT NULL,
    http_status INTEGER,
    duration_ms INTEGER     NOT NULL,
    error_class TEXT,
    PRIMARY KEY (delivery_id, attempt)
);
