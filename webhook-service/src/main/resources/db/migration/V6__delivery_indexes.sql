-- Fewer indexes on deliveries (issue 24): every delivery is inserted pending and updated once or more
-- (state, attempt_count, last_attempt_at); the update cannot be HOT (state is in the log's and the
-- sweepers' indexes), so each index got an entry at the insert and another at every update.
--
-- 1. deliveries_one_per_event (subscription_id, event_id) WHERE redelivery_of IS NULL and
--    deliveries_by_event (event_id) become one unique index led by event_id. It keeps the fan-out's
--    rule (at most one delivery per event and subscription that is not a redelivery: a redelivery's
--    third column is its own id, so redeliveries never collide; the original's is null, and nulls are
--    not distinct here) and serves every lookup by event: the fan-out finding the deliveries of the
--    events it handles again, the purge's "no delivery references this event", and the foreign key's
--    check when an event body is deleted.
-- 2. deliveries_log (subscription_id, created_at DESC, id DESC) goes: a page of the whole log is the
--    newest of the four states' pages, each read from deliveries_log_by_state (DeliveryLog).
CREATE UNIQUE INDEX deliveries_one_per_event_v6 ON deliveries
    (event_id, subscription_id, (CASE WHEN redelivery_of IS NULL THEN NULL ELSE id END)) NULLS NOT DISTINCT;
DROP INDEX deliveries_one_per_event;
DROP INDEX deliveries_by_event;
ALTER INDEX deliveries_one_per_event_v6 RENAME TO deliveries_one_per_event;
DROP INDEX deliveries_log;
