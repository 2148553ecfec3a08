-- Pending sweep (issue 22, PendingSweeper): a delivery left pending with no record on its way
-- (a record dead-lettered or lost) is queued again; requeued_at keeps it from being queued again
-- at every sweep.
ALTER TABLE deliveries ADD COLUMN requeued_at TIMESTAMPTZ;
CREATE INDEX deliveries_pending_by_activity ON deliveries ((COALESCE(requeued_at, last_attempt_at, created_at)))
    WHERE state = 'pending';
