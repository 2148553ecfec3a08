-- hits like TrafficBench: 12 projects, docs/blog, 5,000 paths, 40,000 sessions, 70 % bots
CREATE TABLE public.projects AS SELECT i, md5('p' || i)::uuid AS p FROM generate_series(0, 11) i;
CREATE OR REPLACE FUNCTION public.gen_hits(n int, seed float8) RETURNS TABLE(p uuid, host text, path text, sess text, bot boolean, day int)
LANGUAGE sql AS $$
  SELECT (SELECT p FROM public.projects WHERE i = (r1 * 12)::int % 12), CASE WHEN r2 < 0.5 THEN 'docs.bench.dev' ELSE 'bench.dev' END,
         CASE WHEN r2 < 0.5 THEN '/docs/s' || (pp % 50) || '/p' || pp ELSE '/blog/s' || (pp % 50) || '/post-' || pp END,
         CASE WHEN r3 < 0.7 THEN 'bot-' ELSE 'v-' END || (r4 * 20000)::int, r3 < 0.7, (current_date - DATE '1970-01-01')
  FROM (SELECT random() r1, random() r2, random() r3, random() r4, (random() * 4999)::int pp FROM generate_series(1, n)) x
$$;
CREATE OR REPLACE FUNCTION public.scopes(h text, path text) RETURNS TABLE(hostname text, prefix text) LANGUAGE sql AS $$
  SELECT '', '/' UNION ALL SELECT h, '/' UNION ALL SELECT h, split_part(path, '/', 1) || '/' || split_part(path, '/', 2)
  UNION ALL SELECT h, '/' || split_part(path, '/', 2) || '/' || split_part(path, '/', 3) UNION ALL SELECT h, path
$$;
SELECT setseed(0.42);
-- history: 150,000 earlier hits' session scopes in both layouts
CREATE TABLE public.hist AS SELECT h.p, s.hostname, s.prefix, h.sess, max(h.day) AS d, max(h.day) FILTER (WHERE bot) AS bd,
    max(h.day) FILTER (WHERE NOT bot) AS rd
  FROM public.gen_hits(150000, 0) h, public.scopes(h.host, h.path) s GROUP BY 1, 2, 3, 4;
INSERT INTO old.traffic_sessions SELECT p, hostname, prefix, sess, DATE '1970-01-01' + d, DATE '1970-01-01' + bd, DATE '1970-01-01' + rd FROM public.hist;
INSERT INTO new.traffic_sessions SELECT md5(p::text || ':' || octet_length(hostname) || ':' || hostname || ':' || octet_length(prefix) || ':' || prefix || ':' || sess)::uuid,
   DATE '1970-01-01' + d, DATE '1970-01-01' + bd, DATE '1970-01-01' + rd FROM public.hist;
-- the batch: 5,000 hits folded as HitBatch does
CREATE TABLE public.b_s AS SELECT h.p, s.hostname, s.prefix, h.sess, max(h.day) AS d, max(h.day) FILTER (WHERE bot) AS bd,
    max(h.day) FILTER (WHERE NOT bot) AS rd
  FROM public.gen_hits(5000, 0) h, public.scopes(h.host, h.path) s GROUP BY 1, 2, 3, 4;
CREATE TABLE public.b_c AS SELECT s.p, s.hostname, s.prefix, s.d AS day, count(*)::bigint t, count(*) FILTER (WHERE bd IS NOT NULL)::bigint b,
  count(*) FILTER (WHERE rd IS NOT NULL)::bigint r FROM public.b_s s GROUP BY 1, 2, 3, 4;
ALTER TABLE public.b_s ADD COLUMN key uuid;
UPDATE public.b_s SET key = md5(p::text || ':' || octet_length(hostname) || ':' || hostname || ':' || octet_length(prefix) || ':' || prefix || ':' || sess)::uuid;
CREATE TABLE public.b_new AS SELECT * FROM public.b_s b WHERE NOT EXISTS (SELECT 1 FROM new.traffic_sessions t WHERE t.key = b.key) ORDER BY key;
-- histogram deltas for the new layout, as HitBatch.fold computes them (new sessions: +1; moved ones are absent here: all hits are today)
CREATE TABLE public.b_c2 AS SELECT c.*, coalesce(n.s, 0) s, coalesce(n.bs, 0) bs, coalesce(n.rs, 0) rs FROM public.b_c c LEFT JOIN
 (SELECT p, hostname, prefix, d, count(*)::bigint s, count(bd)::bigint bs, count(rd)::bigint rs FROM public.b_new GROUP BY 1,2,3,4) n
 ON n.p = c.p AND n.hostname = c.hostname AND n.prefix = c.prefix AND n.d = c.day;
ANALYZE;
SELECT (SELECT count(*) FROM public.hist) hist, (SELECT count(*) FROM public.b_s) batch_scopes, (SELECT count(*) FROM public.b_new) new_scopes, (SELECT count(*) FROM public.b_c) scope_days;
