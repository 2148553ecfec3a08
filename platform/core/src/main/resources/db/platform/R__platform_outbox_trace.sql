-- Traces across the outbox (platform, issue 23): the W3C traceparent of the span that wrote the row
-- (OutboxWriter), so that the relay sends the record in the same trace (the record's traceparent
-- header is a child of it). Null for rows written without tracing. Repeatable and idempotent, as the
-- other platform changes after 0.x.
ALTER TABLE outbox ADD COLUMN IF NOT EXISTS traceparent TEXT;
ALTER TABLE outbox_dead_letters ADD COLUMN IF NOT EXISTS traceparent TEXT;
