-- the lookup and the write of traffic-service after 2026-11-26 (HitIngestion.LOOKUP and APPLY), their
-- arrays replaced by the batch tables gen.sql makes
SET search_path=new; SET enable_hashjoin=off; SET enable_mergejoin=off;
EXPLAIN (ANALYZE, BUFFERS, TIMING OFF) 
            SELECT key, last_day - DATE '1970-01-01' AS d, last_bot_day - DATE '1970-01-01' AS bd,
                   last_referral_day - DATE '1970-01-01' AS rd
            FROM traffic_sessions WHERE key = ANY((SELECT array_agg(key ORDER BY key) FROM public.b_s)::uuid[]);
EXPLAIN (ANALYZE, BUFFERS, TIMING OFF) 
            WITH s_new AS (
                INSERT INTO traffic_sessions (key, last_day, last_bot_day, last_referral_day)
                SELECT x.k, DATE '1970-01-01' + x.d, DATE '1970-01-01' + x.bd, DATE '1970-01-01' + x.rd
                FROM (SELECT key, d, bd, rd FROM public.b_new ORDER BY key) AS x(k, d, bd, rd)
            ), s_moved AS (
                INSERT INTO traffic_sessions AS t (key, last_day, last_bot_day, last_referral_day)
                SELECT x.k, DATE '1970-01-01' + x.d, DATE '1970-01-01' + x.bd, DATE '1970-01-01' + x.rd
                FROM unnest('{}'::uuid[], '{}'::int[], '{}'::int[], '{}'::int[]) AS x(k, d, bd, rd)
                ON CONFLICT (key) DO UPDATE SET
                    last_day = greatest(t.last_day, excluded.last_day),
                    last_bot_day = greatest(t.last_bot_day, excluded.last_bot_day),
                    last_referral_day = greatest(t.last_referral_day, excluded.last_referral_day)
            ), days AS (
                INSERT INTO traffic_days AS d (project_id, hostname, prefix, day, total_events, bot_events,
                                               referral_events, sessions, bot_sessions, referral_sessions)
                SELECT c.p, c.h, c.pre, DATE '1970-01-01' + c.day, c.t, c.b, c.r, c.s, c.bs, c.rs
                FROM (SELECT p, hostname, prefix, day, t, b, r, s, bs, rs FROM public.b_c2) AS c(p, h, pre, day, t, b, r, s, bs, rs)
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
            )
            INSERT INTO not_found_days AS n (project_id, day, hostname, path, bot_name, requests)
            SELECT x.p, DATE '1970-01-01' + x.d, x.h, x.path, x.bot, x.n
            FROM unnest('{}'::uuid[], '{}'::int[], '{}'::text[], '{}'::text[], '{}'::text[],
                        '{}'::bigint[]) AS x(p, d, h, path, bot, n)
            ON CONFLICT (project_id, day, hostname, path, bot_name) DO UPDATE SET
                requests = n.requests + excluded.requests;
