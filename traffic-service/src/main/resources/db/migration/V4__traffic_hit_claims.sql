-- The eventId claims of traffic.hits, the suite's highest-volume topic, in a table of their own
-- instead of the platform's processed_events (platform ClaimTable): one row per hit, without the
-- consumer's name that every processed_events row and index entry repeats (a 16-byte key instead of
-- name and key), and a BRIN index for the platform's retention sweep instead of a B-tree (the rows
-- come in claimed_at order). Kept as long as processed_events (suite.retention.processed-events).
CREATE TABLE hit_claims (
    event_id   uuid        NOT NULL PRIMARY KEY,
    claimed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX hit_claims_claimed_at ON hit_claims USING brin (claimed_at);

-- the claims made so far move over, so that a hit delivered again after the upgrade still counts once
INSERT INTO hit_claims (event_id, claimed_at)
SELECT event_id, processed_at FROM processed_events WHERE consumer = 'traffic-service.traffic-hits'
ORDER BY processed_at;
DELETE FROM processed_events WHERE consumer = 'traffic-service.traffic-hits';
