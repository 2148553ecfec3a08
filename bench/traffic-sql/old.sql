-- the batch statement of traffic-service before 2026-11-26 (HitIngestion.APPLY of commit e91024f), its
-- arrays replaced by the batch tables gen.sql makes
SET search_path=old; SET enable_hashjoin=off; SET enable_mergejoin=off;
EXPLAIN (ANALYZE, BUFFERS, TIMING OFF) 
            WITH counts AS (
                SELECT c.project_id, c.hostname, c.prefix, DATE '1970-01-01' + c.day AS day, c.t, c.b, c.r
                FROM (SELECT p, hostname, prefix, day - 0, t, b, r FROM public.b_c) AS c(project_id, hostname, prefix, day, t, b, r)
            ), s_in AS (
                SELECT s.project_id, s.hostname, s.prefix, s.session_id, DATE '1970-01-01' + s.d AS last_day,
                       DATE '1970-01-01' + s.bd AS last_bot_day, DATE '1970-01-01' + s.rd AS last_referral_day
                FROM (SELECT p, hostname, prefix, sess, d, bd, rd FROM public.b_s) AS s(project_id, hostname, prefix, session_id, d, bd, rd)
            ), cur AS (
                -- each input session with its stored last days (one index probe each): what the batch moves
                SELECT s.project_id, s.hostname, s.prefix, t.last_day AS o_day,
                       greatest(t.last_day, s.last_day) AS n_day, t.last_bot_day AS o_bot,
                       greatest(t.last_bot_day, s.last_bot_day) AS n_bot, t.last_referral_day AS o_ref,
                       greatest(t.last_referral_day, s.last_referral_day) AS n_ref
                FROM s_in s LEFT JOIN traffic_sessions t
                    ON t.project_id = s.project_id AND t.hostname = s.hostname AND t.prefix = s.prefix
                   AND t.session_id = s.session_id
            ), s_new AS (
                INSERT INTO traffic_sessions AS t (project_id, hostname, prefix, session_id, last_day, last_bot_day,
                                                   last_referral_day)
                SELECT project_id, hostname, prefix, session_id, last_day, last_bot_day, last_referral_day FROM s_in
                ON CONFLICT (project_id, hostname, prefix, session_id) DO UPDATE SET
                    last_day = greatest(t.last_day, excluded.last_day),
                    last_bot_day = greatest(t.last_bot_day, excluded.last_bot_day),
                    last_referral_day = greatest(t.last_referral_day, excluded.last_referral_day)
                WHERE excluded.last_day > t.last_day
                   OR excluded.last_bot_day > coalesce(t.last_bot_day, '-infinity'::date)
                   OR excluded.last_referral_day > coalesce(t.last_referral_day, '-infinity'::date)
            ), moved AS (
                SELECT * FROM cur
                WHERE o_day IS DISTINCT FROM n_day OR o_bot IS DISTINCT FROM n_bot OR o_ref IS DISTINCT FROM n_ref
            ), deltas (project_id, hostname, prefix, day, t, b, r, s, bs, rs) AS (
                SELECT project_id, hostname, prefix, day, t, b, r, 0::bigint, 0::bigint, 0::bigint FROM counts
                UNION ALL SELECT project_id, hostname, prefix, n_day, 0, 0, 0, 1, 0, 0 FROM moved
                    WHERE o_day IS DISTINCT FROM n_day
                UNION ALL SELECT project_id, hostname, prefix, o_day, 0, 0, 0, -1, 0, 0 FROM moved
                    WHERE o_day IS NOT NULL AND o_day <> n_day
                UNION ALL SELECT project_id, hostname, prefix, n_bot, 0, 0, 0, 0, 1, 0 FROM moved
                    WHERE n_bot IS NOT NULL AND o_bot IS DISTINCT FROM n_bot
                UNION ALL SELECT project_id, hostname, prefix, o_bot, 0, 0, 0, 0, -1, 0 FROM moved
                    WHERE o_bot IS NOT NULL AND o_bot <> n_bot
                UNION ALL SELECT project_id, hostname, prefix, n_ref, 0, 0, 0, 0, 0, 1 FROM moved
                    WHERE n_ref IS NOT NULL AND o_ref IS DISTINCT FROM n_ref
                UNION ALL SELECT project_id, hostname, prefix, o_ref, 0, 0, 0, 0, 0, -1 FROM moved
                    WHERE o_ref IS NOT NULL AND o_ref <> n_ref
            ), days AS (
                INSERT INTO traffic_days AS d (project_id, hostname, prefix, day, total_events, bot_events,
                                               referral_events, sessions, bot_sessions, referral_sessions)
                SELECT project_id, hostname, prefix, day, sum(t), sum(b), sum(r), sum(s), sum(bs), sum(rs)
                FROM deltas GROUP BY project_id, hostname, prefix, day
                ON CONFLICT (project_id, hostname, prefix, day) DO UPDATE SET
                    total_events = d.total_events + excluded.total_events,
                    bot_events = d.bot_events + excluded.bot_events,
                    referral_events = d.referral_events + excluded.referral_events,
                    sessions = d.sessions + excluded.sessions,
                    bot_sessions = d.bot_sessions + excluded.bot_sessions,
                    referral_sessions = d.referral_sessions + excluded.referral_sessions
            ), sources AS (
                INSERT INTO sensor_sources AS s (project_id, source, last_accepted_at)
                SELECT x.p, x.s, TIMESTAMPTZ 'epoch' + x.ms * INTERVAL '1 millisecond'
                FROM unnest('{}'::uuid[], '{}'::text[], '{}'::bigint[]) AS x(p, s, ms)
                ON CONFLICT (project_id, source) DO UPDATE SET
                    last_accepted_at = greatest(s.last_accepted_at, excluded.last_accepted_at)
            ), hosts AS (
                INSERT INTO sensor_hostnames AS h (project_id, source, hostname, last_accepted_at)
                SELECT x.p, x.s, x.h, TIMESTAMPTZ 'epoch' + x.ms * INTERVAL '1 millisecond'
                FROM unnest('{}'::uuid[], '{}'::text[], '{}'::text[], '{}'::bigint[]) AS x(p, s, h, ms)
                ON CONFLICT (project_id, source, hostname) DO UPDATE SET
                    last_accepted_at = greatest(h.last_accepted_at, excluded.last_accepted_at)
            ), not_found AS (
                INSERT INTO not_found_days AS n (project_id, day, hostname, path, bot_name, requests)
                SELECT x.p, DATE '1970-01-01' + x.d, x.h, x.path, x.bot, x.n
                FROM unnest('{}'::uuid[], '{}'::int[], '{}'::text[], '{}'::text[], '{}'::text[],
                            '{}'::bigint[]) AS x(p, d, h, path, bot, n)
                ON CONFLICT (project_id, day, hostname, path, bot_name) DO UPDATE SET
                    requests = n.requests + excluded.requests
            )
            SELECT count(*) AS moved FROM moved;
