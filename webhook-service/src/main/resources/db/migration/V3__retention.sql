-- Retention (suite.webhook.retention, README "Retention"): finished deliveries older than the
-- retention are purged with their attempts, then the event bodies no delivery references.

-- the purge finds the finished deliveries by age (pending ones are never purged)
CREATE INDEX deliveries_finished_by_age ON deliveries ((COALESCE(last_attempt_at, created_at)))
    WHERE state <> 'pending';
-- a delivery a redelivery refers to stays as long as the redelivery does (and deleting one checks it)
CREATE INDEX deliveries_redelivery_of ON deliveries (redelivery_of) WHERE redelivery_of IS NOT NULL;
-- "no delivery references this event" must see redeliveries too: a full index instead of the partial one
DROP INDEX deliveries_by_event;
CREATE INDEX deliveries_by_event ON deliveries (event_id);
-- the purge finds unreferenced event bodies by age
CREATE INDEX events_by_age ON events (received_at);
