-- The dashboard's webhooks page calls the public API through the gateway like any client, with a
-- key of its own per signed-in session and project, narrowed to webhooks.read and webhooks.write
-- (auth-service README, "Webhooks page"). session_expires_at marks such a key: it is revoked at
-- sign-out, when the session ends, and at the latest by the sweep once this time has passed.
ALTER TABLE api_keys ADD COLUMN session_expires_at TIMESTAMPTZ;

CREATE INDEX api_keys_session_expiry ON api_keys (session_expires_at)
    WHERE session_expires_at IS NOT NULL AND revoked_at IS NULL;
