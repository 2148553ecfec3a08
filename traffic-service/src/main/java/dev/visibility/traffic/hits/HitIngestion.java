package dev.visibility.traffic.hits;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;

import dev.visibility.platform.db.ArrayLiterals;
import dev.visibility.platform.events.TrafficHitObserved;
import dev.visibility.traffic.config.TrafficProperties;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Applies a batch of hits to the rollups (after a per-project advisory lock) with two statements:
 * the stored last days of the batch's session scopes, looked up by their 128-bit keys
 * ({@link SessionKeys}); then, with what moves computed in memory ({@link HitBatch#fold}), the new and
 * moved session scopes, one row per scope and day with the event counts and the session histogram
 * moves (see the migrations' notes on traffic_days and traffic_sessions), the sensor state, and the
 * 404 aggregates. Runs in the transaction in which the platform claims the batch's eventIds. The
 * arrays go as one text each ({@link ArrayLiterals}).
 */
@Component
public class HitIngestion {

    /** A project's hits must be applied one batch at a time for the session histograms to stay exact. */
    static final int LOCK_SPACE = 0x7472_6166; // "traf"

    /**
     * The stored last days of the batch's session scopes (by key, in key order: one pass over the
     * index), as one text of {@code key day botDay referralDay} entries (an empty day for none)
     * separated by commas: one value to read instead of a row per scope.
     */
    static final String LOOKUP = """
            SELECT coalesce(string_agg(key::text || ' ' || (last_day - DATE '1970-01-01') || ' '
                       || coalesce((last_bot_day - DATE '1970-01-01')::text, '') || ' '
                       || coalesce((last_referral_day - DATE '1970-01-01')::text, ''), ','), '') AS found
            FROM traffic_sessions WHERE key = ANY(:keys::uuid[])""";

    /**
     * The batch's writes: new session scopes (plain inserts: the project's advisory lock keeps other
     * batches of the project out, and the retention sweep only deletes), moved ones (an upsert, in
     * case the sweep removed one meanwhile), one row per scope-day with the event counts and the
     * histogram moves summed in memory, the sensor state and the 404 aggregates.
     */
    static final String APPLY = """
            WITH s_new AS (
                INSERT INTO traffic_sessions (key, last_day, last_bot_day, last_referral_day)
                SELECT x.k, DATE '1970-01-01' + x.d, DATE '1970-01-01' + x.bd, DATE '1970-01-01' + x.rd
                FROM unnest(:nKey::uuid[], :nDay::int[], :nBot::int[], :nRef::int[]) AS x(k, d, bd, rd)
            ), s_moved AS (
                INSERT INTO traffic_sessions AS t (key, last_day, last_bot_day, last_referral_day)
                SELECT x.k, DATE '1970-01-01' + x.d, DATE '1970-01-01' + x.bd, DATE '1970-01-01' + x.rd
                FROM unnest(:mKey::uuid[], :mDay::int[], :mBot::int[], :mRef::int[]) AS x(k, d, bd, rd)
                ON CONFLICT (key) DO UPDATE SET
                    last_day = greatest(t.last_day, excluded.last_day),
                    last_bot_day = greatest(t.last_bot_day, excluded.last_bot_day),
                    last_referral_day = greatest(t.last_referral_day, excluded.last_referral_day)
            ), days AS (
                INSERT INTO traffic_days AS d (project_id, hostname, prefix, day, total_events, bot_events,
                                               referral_events, sessions, bot_sessions, referral_sessions)
                SELECT c.p, c.h, c.pre, DATE '1970-01-01' + c.day, c.t, c.b, c.r, c.s, c.bs, c.rs
                FROM unnest(:cProject::uuid[], :cHost::text[], :cPrefix::text[], :cDay::int[], :cTotal::bigint[],
                            :cBot::bigint[], :cRef::bigint[], :cSessions::bigint[], :cBotSessions::bigint[],
                            :cRefSessions::bigint[]) AS c(p, h, pre, day, t, b, r, s, bs, rs)
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
            )
            INSERT INTO not_found_days AS n (project_id, day, hostname, path, bot_name, requests)
            SELECT x.p, DATE '1970-01-01' + x.d, x.h, x.path, x.bot, x.n
            FROM unnest(:nfProject::uuid[], :nfDay::int[], :nfHost::text[], :nfPath::text[], :nfBot::text[],
                        :nfCount::bigint[]) AS x(p, d, h, path, bot, n)
            ON CONFLICT (project_id, day, hostname, path, bot_name) DO UPDATE SET
                requests = n.requests + excluded.requests""";

    private final DatabaseClient db;
    private final Clock clock;
    private final Duration statementTimeout;

    HitIngestion(DatabaseClient db, Clock clock, TrafficProperties properties) {
        this.db = db;
        this.clock = clock;
        this.statementTimeout = properties.ingestTimeout();
    }

    /** Applies the hits (the caller's transaction); answers how many session scopes moved (new ones included). */
    public Mono<Long> apply(List<TrafficHitObserved> hits) {
        if (hits.isEmpty()) {
            return Mono.just(0L);
        }
        HitBatch batch = HitBatch.of(hits, clock.instant());
        SessionKeys keys = SessionKeys.of(batch);
        TreeSet<UUID> projects = new TreeSet<>();
        hits.forEach(hit -> projects.add(hit.projectId()));
        return lock(projects)
                .then(stored(keys))
                .flatMap(stored -> {
                    long moved = batch.fold(keys, stored);
                    return statement(batch).thenReturn(moved);
                });
    }

    /** The stored last days ({@link HitBatch#NONE} for none) of the batch's session scopes, by position in {@code keys.sorted}; null for a scope without a row. */
    private Mono<int[][]> stored(SessionKeys keys) {
        if (keys.sorted.length == 0) {
            return Mono.just(new int[0][]);
        }
        return db.sql(LOOKUP)
                .bind("keys", ArrayLiterals.uuids(keys.sorted))
                .map(row -> row.get(0, String.class))
                .one()
                .map(found -> parseStored(found, keys));
    }

    /** Reads {@link #LOOKUP}'s text into the last days of each of {@code keys.sorted} (null where none is stored). */
    static int[][] parseStored(String found, SessionKeys keys) {
        int[][] stored = new int[keys.sorted.length][];
        int at = 0;
        int end = found.length();
        while (at < end) {
            UUID key = UUID.fromString(found.substring(at, at + 36));
            at += 37;
            int[] days = new int[3];
            for (int c = 0; c < 3; c++) {
                int stop = at;
                while (stop < end && found.charAt(stop) != ' ' && found.charAt(stop) != ',') {
                    stop++;
                }
                days[c] = stop == at ? HitBatch.NONE : Integer.parseInt(found, at, stop, 10);
                at = stop + 1;
            }
            int index = keys.indexOf(key);
            if (index < 0) {
                throw new IllegalStateException("The lookup answered a key the batch did not ask for: " + key);
            }
            stored[index] = days;
        }
        return stored;
    }

    /**
     * The batch transaction's settings: its statements may take longer than the platform's
     * per-statement limit (10 s); no join hashes a whole table (the upserts probe by key); and the
     * lookup probes the index key by key: for a batch of thousands of keys the planner would rather
     * read the whole session table and test each row against the key array one element after the
     * other (a batch of 5,000 hits then took minutes).
     */
    static final String SETTINGS = """
            set_config('statement_timeout', :timeout, true), set_config('enable_hashjoin', 'off', true),
            set_config('enable_mergejoin', 'off', true), set_config('enable_seqscan', 'off', true)""";

    private Mono<Void> lock(TreeSet<UUID> projects) {
        // the projects in a fixed order, so that two consumers never wait for each other
        return db.sql("SELECT " + SETTINGS + """
                ,
                       (SELECT count(pg_advisory_xact_lock(:space, hashtext(p::text)))
                        FROM unnest(:projects::uuid[]) WITH ORDINALITY AS x(p, o))""")
                .bind("timeout", String.valueOf(statementTimeout.toMillis()))
                .bind("space", LOCK_SPACE)
                .bind("projects", projects.toArray(UUID[]::new))
                .fetch().all().then();
    }

    private Mono<Void> statement(HitBatch batch) {
        int n = batch.newSessions.size();
        UUID[] nKey = new UUID[n];
        Integer[] nDay = new Integer[n];
        Integer[] nBot = new Integer[n];
        Integer[] nRef = new Integer[n];
        int i = 0;
        for (Map.Entry<UUID, int[]> e : batch.newSessions) {
            nKey[i] = e.getKey();
            nDay[i] = e.getValue()[0];
            nBot[i] = day(e.getValue()[1]);
            nRef[i] = day(e.getValue()[2]);
            i++;
        }
        int mv = batch.movedSessions.size();
        UUID[] mKey = new UUID[mv];
        Integer[] mDay = new Integer[mv];
        Integer[] mBot = new Integer[mv];
        Integer[] mRef = new Integer[mv];
        i = 0;
        for (Map.Entry<UUID, int[]> e : batch.movedSessions) {
            mKey[i] = e.getKey();
            mDay[i] = e.getValue()[0];
            mBot[i] = day(e.getValue()[1]);
            mRef[i] = day(e.getValue()[2]);
            i++;
        }
        int c = batch.counts.size();
        UUID[] cProject = new UUID[c];
        String[] cHost = new String[c];
        String[] cPrefix = new String[c];
        Integer[] cDay = new Integer[c];
        Long[][] values = new Long[6][c];
        i = 0;
        for (Map.Entry<HitBatch.ScopeDay, long[]> e : batch.counts.entrySet()) {
            cProject[i] = e.getKey().project();
            cHost[i] = e.getKey().hostname();
            cPrefix[i] = e.getKey().prefix();
            cDay[i] = e.getKey().day();
            for (int v = 0; v < 6; v++) {
                values[v][i] = e.getValue()[v];
            }
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
        UUID[] nfProject = new UUID[f];
        Integer[] nfDay = new Integer[f];
        String[] nfHost = new String[f];
        String[] nfPath = new String[f];
        String[] nfBot = new String[f];
        Long[] nfCount = new Long[f];
        i = 0;
        for (Map.Entry<HitBatch.NotFound, long[]> e : batch.notFound.entrySet()) {
            nfProject[i] = e.getKey().project();
            nfDay[i] = e.getKey().day();
            nfHost[i] = e.getKey().hostname();
            nfPath[i] = e.getKey().path();
            nfBot[i] = e.getKey().botName();
            nfCount[i] = e.getValue()[0];
            i++;
        }
        return db.sql(APPLY)
                .bind("nKey", ArrayLiterals.uuids(nKey))
                .bind("nDay", ArrayLiterals.numbers(nDay))
                .bind("nBot", ArrayLiterals.numbers(nBot))
                .bind("nRef", ArrayLiterals.numbers(nRef))
                .bind("mKey", ArrayLiterals.uuids(mKey))
                .bind("mDay", ArrayLiterals.numbers(mDay))
                .bind("mBot", ArrayLiterals.numbers(mBot))
                .bind("mRef", ArrayLiterals.numbers(mRef))
                .bind("cProject", ArrayLiterals.uuids(cProject))
                .bind("cHost", ArrayLiterals.texts(cHost))
                .bind("cPrefix", ArrayLiterals.texts(cPrefix))
                .bind("cDay", ArrayLiterals.numbers(cDay))
                .bind("cTotal", ArrayLiterals.numbers(values[0]))
                .bind("cBot", ArrayLiterals.numbers(values[1]))
                .bind("cRef", ArrayLiterals.numbers(values[2]))
                .bind("cSessions", ArrayLiterals.numbers(values[3]))
                .bind("cBotSessions", ArrayLiterals.numbers(values[4]))
                .bind("cRefSessions", ArrayLiterals.numbers(values[5]))
                .bind("srcProject", ArrayLiterals.uuids(srcProject))
                .bind("srcName", ArrayLiterals.texts(srcName))
                .bind("srcAt", ArrayLiterals.numbers(srcAt))
                .bind("hProject", ArrayLiterals.uuids(hProject))
                .bind("hSource", ArrayLiterals.texts(hSource))
                .bind("hName", ArrayLiterals.texts(hName))
                .bind("hAt", ArrayLiterals.numbers(hAt))
                .bind("nfProject", ArrayLiterals.uuids(nfProject))
                .bind("nfDay", ArrayLiterals.numbers(nfDay))
                .bind("nfHost", ArrayLiterals.texts(nfHost))
                .bind("nfPath", ArrayLiterals.texts(nfPath))
                .bind("nfBot", ArrayLiterals.texts(nfBot))
                .bind("nfCount", ArrayLiterals.numbers(nfCount))
                .then();
    }

    private static Integer day(int day) {
        return day == HitBatch.NONE ? null : day;
    }
}
