-- traffic_sessions keyed by one 128-bit key per (project, hostname, prefix, session) instead of the
-- four columns: the batch looks sessions up and inserts them by a 16-byte key (a smaller index and
-- table, cheaper to probe and to write). The key is md5 of
--   project_id::text ':' octet_length(hostname) ':' hostname ':' octet_length(prefix) ':' prefix ':' session_id
-- (lengths in UTF-8 bytes, so that no two scopes spell one text), as a uuid; HitIngestion computes the
-- same in Java. Nothing reads a session row by its scope: E4 reads traffic_days' histograms, the
-- retention sweep removes rows by last_day. Two sessions of one project whose keys collide would
-- count as one (a 128-bit hash: never expected in practice).
CREATE TABLE traffic_session_keys (
    key               uuid NOT NULL PRIMARY KEY,
    last_day          date NOT NULL,
    last_bot_day      date,
    last_referral_day date
) WITH (fillfactor = 70);

INSERT INTO traffic_session_keys (key, last_day, last_bot_day, last_referral_day)
SELECT md5(project_id::text || ':' || octet_length(hostname) || ':' || hostname || ':' || octet_length(prefix) || ':'
           || prefix || ':' || session_id)::uuid,
       last_day, last_bot_day, last_referral_day
FROM traffic_sessions;

DROP TABLE traffic_sessions;
ALTER TABLE traffic_session_keys RENAME TO traffic_sessions;
ALTER INDEX traffic_session_keys_pkey RENAME TO traffic_sessions_pkey;
-- the retention sweep's index: BRIN, cheap to keep, and an update that moves last_day stays HOT
-- (PostgreSQL 16+ lets a HOT update change a column only summarizing indexes cover)
CREATE INDEX traffic_sessions_last_day ON traffic_sessions USING brin (last_day);
