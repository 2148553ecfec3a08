package dev.visibility.traffic.hits;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;

import dev.visibility.platform.events.TrafficHitObserved;
import dev.visibility.traffic.config.TrafficProperties;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Applies a batch of hits to the rollups with one statement (after a per-project advisory lock):
 * event counts per scope and day, the sessions' last days and the per-day session histograms they
 * feed (see the migration's notes on traffic_days), the sensor state, and the 404 aggregates.
 * Runs in the transaction in which the platform claims the batch's eventIds.
 */
@Component
public class HitIngestion {

    /** A project's hits must be applied one batch at a time for the session histograms to stay exact. */
    static final int LOCK_SPACE = 0x7472_6166; // "traf"

    static final String APPLY = """
            WITH counts AS (
                SELECT c.project_id, c.hostname, c.prefix, DATE '1970-01-01' + c.day AS day, c.t, c.b, c.r
                FROM unnest(:cProject::uuid[], :cHost::text[], :cPrefix::text[], :cDay::int[], :cTotal::bigint[],
                            :cBot::bigint[], :cRef::bigint[]) AS c(project_id, hostname, prefix, day, t, b, r)
            ), s_in AS (
                SELECT s.project_id, s.hostname, s.prefix, s.session_id, DATE '1970-01-01' + s.d AS last_day,
                       DATE '1970-01-01' + s.bd AS last_bot_day, DATE '1970-01-01' + s.rd AS last_referral_day
                FROM unnest(:sProject::uuid[], :sHost::text[], :sPrefix::text[], :sSession::text[], :sDay::int[],
                            :sBot::int[], :sRef::int[]) AS s(project_id, hostname, prefix, session_id, d, bd, rd)
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
                FROM unnest(:srcProject::uuid[], :srcName::text[], :srcAt::bigint[]) AS x(p, s, ms)
                ON CONFLICT (project_id, source) DO UPDATE SET
                    last_accepted_at = greatest(s.last_accepted_at, excluded.last_accepted_at)
            ), hosts AS (
                INSERT INTO sensor_hostnames AS h (project_id, source, hostname, last_accepted_at)
                SELECT x.p, x.s, x.h, TIMESTAMPTZ 'epoch' + x.ms * INTERVAL '1 millisecond'
                FROM unnest(:hProject::uuid[], :hSource::text[], :hName::text[], :hAt::bigint[]) AS x(p, s, h, ms)
                ON CONFLICT (project_id, source, hostname) DO UPDATE SET
                    last_accepted_at = greatest(h.last_accepted_at, excluded.last_accepted_at)
            ), not_found AS (
                INSERT INTO not_found_days AS n (project_id, day, hostname, path, bot_name, requests)
                SELECT x.p, DATE '1970-01-01' + x.d, x.h, x.path, x.bot, x.n
                FROM unnest(:nProject::uuid[], :nDay::int[], :nHost::text[], :nPath::text[], :nBot::text[],
                            :nCount::bigint[]) AS x(p, d, h, path, bot, n)
                ON CONFLICT (project_id, day, hostname, path, bot_name) DO UPDATE SET
                    requests = n.requests + excluded.requests
            )
            SELECT count(*) AS moved FROM moved""";

    private final DatabaseClient db;
    private final Clock clock;
    private final Duration statementTimeout;

    HitIngestion(DatabaseClient db, Clock clock, TrafficProperties properties) {
        this.db = db;
        this.clock = clock;
        this.statementTimeout = properties.ingestTimeout();
    }

    /** Applies the hits (the caller's transaction); answers how many session scopes moved. */
    public Mono<Long> apply(List<TrafficHitObserved> hits) {
        if (hits.isEmpty()) {
            return Mono.just(0L);
        }
        HitBatch batch = HitBatch.of(hits, clock.instant());
        TreeSet<UUID> projects = new TreeSet<>();
        hits.forEach(hit -> projects.add(hit.projectId()));
        return lock(projects).then(statement(batch));
    }

    private Mono<Void> lock(TreeSet<UUID> projects) {
        // in a fixed order, so that two consumers never wait for each other
        // for this transaction: the batch's statement may take longer than the platform's
        // per-statement limit (10 s); and its sessions are looked up by key (one index probe each),
        // never by hashing the whole sessions table, whose size grows with the traffic
        return db.sql("""
                SELECT set_config('statement_timeout', :timeout, true), set_config('enable_hashjoin', 'off', true),
                       set_config('enable_mergejoin', 'off', true),
                       (SELECT count(pg_advisory_xact_lock(:space, hashtext(p::text)))
                        FROM unnest(:projects::uuid[]) WITH ORDINALITY AS x(p, o))""")
                .bind("timeout", String.valueOf(statementTimeout.toMillis()))
                .bind("space", LOCK_SPACE)
                .bind("projects", projects.toArray(UUID[]::new))
                .fetch().all().then();
    }

    private Mono<Long> statement(HitBatch batch) {
        int n = batch.counts.size();
        UUID[] cProject = new UUID[n];
        String[] cHost = new String[n];
        String[] cPrefix = new String[n];
        Integer[] cDay = new Integer[n];
        Long[] cTotal = new Long[n];
        Long[] cBot = new Long[n];
        Long[] cRef = new Long[n];
        int i = 0;
        for (Map.Entry<HitBatch.ScopeDay, long[]> e : batch.counts.entrySet()) {
            cProject[i] = e.getKey().project();
            cHost[i] = e.getKey().hostname();
            cPrefix[i] = e.getKey().prefix();
            cDay[i] = e.getKey().day();
            cTotal[i] = e.getValue()[0];
            cBot[i] = e.getValue()[1];
            cRef[i] = e.getValue()[2];
            i++;
        }
        int m = batch.sessions.size();
        UUID[] sProject = new UUID[m];
        String[] sHost = new String[m];
        String[] sPrefix = new String[m];
        String[] sSession = new String[m];
        Integer[] sDay = new Integer[m];
        Integer[] sBot = new Integer[m];
        Integer[] sRef = new Integer[m];
        i = 0;
        for (Map.Entry<HitBatch.ScopeSession, int[]> e : batch.sessions.entrySet()) {
            sProject[i] = e.getKey().project();
            sHost[i] = e.getKey().hostname();
            sPrefix[i] = e.getKey().prefix();
            sSession[i] = e.getKey().session();
            sDay[i] = e.getValue()[0];
            sBot[i] = e.getValue()[1] == HitBatch.NONE ? null : e.getValue()[1];
            sRef[i] = e.getValue()[2] == HitBatch.NONE ? null : e.getValue()[2];
            i++;
        }
        int k = batch.sources.size();
        UUID[] srcProject = new UUID[k];
        String[] srcName = new String[k];
        Long[] srcAt = new Long[k];
        i = 0;
        for (Map.Entry<HitBatch.Source, Long> e : batch.sources.entrySet()) {
            srcProject[i] = e.getKey().project();
            srcName[i] = e.getKey().source();
            srcAt[i] = e.getValue();
            i++;
        }
        int h = batch.hostnames.size();
        UUID[] hProject = new UUID[h];
        String[] hSource = new String[h];
        String[] hName = new String[h];
        Long[] hAt = new Long[h];
        i = 0;
        for (Map.Entry<HitBatch.SourceHost, Long> e : batch.hostnames.entrySet()) {
            hProject[i] = e.getKey().project();
            hSource[i] = e.getKey().source();
            hName[i] = e.getKey().hostname();
            hAt[i] = e.getValue();
            i++;
        }
        int f = batch.notFound.size();
        UUID[] nProject = new UUID[f];
        Integer[] nDay = new Integer[f];
        String[] nHost = new String[f];
        String[] nPath = new String[f];
        String[] nBot = new String[f];
        Long[] nCount = new Long[f];
        i = 0;
        for (Map.Entry<HitBatch.NotFound, long[]> e : batch.notFound.entrySet()) {
            nProject[i] = e.getKey().project();
            nDay[i] = e.getKey().day();
            nHost[i] = e.getKey().hostname();
            nPath[i] = e.getKey().path();
            nBot[i] = e.getKey().botName();
            nCount[i] = e.getValue()[0];
            i++;
        }
        return db.sql(APPLY)
                .bind("cProject", cProject).bind("cHost", cHost).bind("cPrefix", cPrefix).bind("cDay", cDay)
                .bind("cTotal", cTotal).bind("cBot", cBot).bind("cRef", cRef)
                .bind("sProject", sProject).bind("sHost", sHost).bind("sPrefix", sPrefix).bind("sSession", sSession)
                .bind("sDay", sDay).bind("sBot", sBot).bind("sRef", sRef)
                .bind("srcProject", srcProject).bind("srcName", srcName).bind("srcAt", srcAt)
                .bind("hProject", hProject).bind("hSource", hSource).bind("hName", hName).bind("hAt", hAt)
                .bind("nProject", nProject).bind("nDay", nDay).bind("nHost", nHost).bind("nPath", nPath)
                .bind("nBot", nBot).bind("nCount", nCount)
                .map(row -> row.get("moved", Long.class))
                .one();
    }
}
