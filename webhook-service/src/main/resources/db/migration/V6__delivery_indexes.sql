-- Fewer indexes on deliveries (issue 24): every delivery is inserted pending and updated once or more
-- (state, attempt_count, last_attempt_at); the update cannot be HOT (state is in the log's and the
-- sweepers' indexes), so each index got an entry at the insert and another at every update.
--
-- 1. deliveries_per_event: one unique index led by event_id. It keeps the fan-out's rule (at most
--    one delivery per event and subscription that is not a redelivery: a redelivery's third column is
--    its own id, so redeliveries never collide; the original's is null, and nulls are not distinct
--    here; the fan-out's ON CONFLICT names it) and serves every lookup by event: the fan-out finding
--    the deliveries of the events it handles again, the purge's "no delivery references this event",
--    and the foreign key's check when an event body is deleted. It replaces deliveries_by_event.
-- 2. deliveries_log (subscription_id, created_at DESC, id DESC) goes: a page of the whole log is the
--    newest of the four states' pages, each read from deliveries_log_by_state (DeliveryLog).
--
-- deliveries_one_per_event (subscription_id, event_id) WHERE redelivery_of IS NULL stays for now:
-- instances of the previous version name it in their fan-out's ON CONFLICT, and without it their
-- fan-out would fail (and dead-letter events) during a rolling upgrade. A later migration drops it,
-- once no instance older than this one can run (README, "Tables"). The previous version's other
-- reads work without the two dropped indexes (by event through deliveries_per_event; its whole-log
-- page by sorting the webhook's deliveries) until its instances are replaced.
CREATE UNIQUE INDEX deliveries_per_event ON deliveries
    (event_id, subscription_id, (CASE WHEN redelivery_of IS NULL THEN NULL ELSE id END)) NULLS NOT DISTINCT;
DROP INDEX deliveries_by_event;
DROP INDEX deliveries_log;
