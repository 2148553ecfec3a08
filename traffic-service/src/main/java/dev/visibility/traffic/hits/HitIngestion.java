package dev.visibility.traffic.hits;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;

import dev.visibility.platform.db.ArrayLiterals;
import dev.visibility.platform.db.ArrayLiterals.Column;
import dev.visibility.platform.events.TrafficHitObserved;
import dev.visibility.traffic.config.TrafficProperties;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.NoTransactionException;
import org.springframework.transaction.reactive.TransactionSynchronization;
import org.springframework.transaction.reactive.TransactionSynchronizationManager;
import reactor.core.publisher.Mono;

/**
 * Applies a batch of hits to the rollups (after a per-project advisory lock) with two statements:
 * the stored last days of the batch's session scopes, looked up by their 128-bit keys
 * ({@link SessionKeys}); then, with what moves computed in memory ({@link HitBatch#fold}), the new and
 * moved session scopes, one row per scope and day with the event counts and the session histogram
 * moves (see the migrations' notes on traffic_days and traffic_sessions), the sensor state, and the
 * 404 aggregates. Runs in the transaction in which the platform claims the batch's eventIds. The
 * arrays go as one text each ({@link ArrayLiterals}). A session scope whose row the batch cannot move
 * ({@link SessionCache}: its last days as committed are known to be at least the batch's) is neither
 * looked up nor written.
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

    /**
     * How recent a remembered last day must be for {@link SessionCache} to vouch for its row: far
     * within the retention sweep's 92 days, so that the sweep cannot have removed the row.
     */
    static final int CACHE_TRUST_DAYS = 7;

    private final DatabaseClient db;
    private final Clock clock;
    private final Duration statementTimeout;
    private final SessionCache cache;
    private final Counter skipped;
    private final Counter lookedUp;

    HitIngestion(DatabaseClient db, Clock clock, TrafficProperties properties, MeterRegistry meters) {
        this.db = db;
        this.clock = clock;
        this.statementTimeout = properties.ingestTimeout();
        this.cache = new SessionCache(properties.sessionCacheSlots());
        this.skipped = sessionScopes(meters, "cached");
        this.lookedUp = sessionScopes(meters, "database");
    }

    private static Counter sessionScopes(MeterRegistry meters, String lookup) {
        return Counter.builder("traffic.session.scopes")
                .description("Session scopes of applied hit batches, by where their stored last days were known from:"
                        + " the session cache (neither looked up nor written) or the database")
                .tag("lookup", lookup)
                .register(meters);
    }

    /** Applies the hits (the caller's transaction); answers how many session scopes moved (new ones included). */
    public Mono<Long> apply(List<TrafficHitObserved> hits) {
        if (hits.isEmpty()) {
            return Mono.just(0L);
        }
        Instant now = clock.instant();
        HitBatch batch = HitBatch.of(hits, now);
        SessionKeys keys = SessionKeys.of(batch, cache, HitBatch.epochDay(now) - CACHE_TRUST_DAYS);
        skipped.increment(keys.covered);
        lookedUp.increment(keys.sorted.length);
        TreeSet<UUID> projects = new TreeSet<>();
        hits.forEach(hit -> projects.add(hit.projectId()));
        return lock(projects)
                .then(stored(keys))
                .flatMap(stored -> {
                    long moved = batch.fold(keys, stored);
                    return statement(batch).then(rememberOnCommit(keys)).thenReturn(moved);
                });
    }

    /**
     * Has the cache remember the batch's rows once its transaction committed (never those of a batch
     * that rolled back); outside a transaction each statement committed on its own, so at once.
     */
    private Mono<Void> rememberOnCommit(SessionKeys keys) {
        if (cache.slots() == 0 || keys.sorted.length == 0) {
            return Mono.empty();
        }
        return TransactionSynchronizationManager.forCurrentTransaction()
                .flatMap(transaction -> {
                    if (transaction.isSynchronizationActive() && transaction.isActualTransactionActive()) {
                        transaction.registerSynchronization(new TransactionSynchronization() {
                            @Override
                            public Mono<Void> afterCommit() {
                                return Mono.fromRunnable(() -> keys.remember(cache));
                            }
                        });
                    }
                    return Mono.<Void>empty();
                })
                .onErrorResume(NoTransactionException.class, none -> Mono.fromRunnable(() -> keys.remember(cache)));
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
        // each column's literal is written as the batch's maps are walked (ArrayLiterals.Column)
        SessionColumns fresh = SessionColumns.of(batch.newSessions);
        SessionColumns moved = SessionColumns.of(batch.movedSessions);
        int c = 0;
        for (HitBatch.Scope scope : batch.scopes) {
            c += scope.dayCount();
        }
        Column cProject = new Column(c, 36);
        Column cHost = new Column(c, 20);
        Column cPrefix = new Column(c, 30);
        Column cDay = new Column(c, 5);
        Column[] values = new Column[6];
        for (int v = 0; v < values.length; v++) {
            values[v] = new Column(c, 3);
        }
        for (HitBatch.Scope scope : batch.scopes) {
            for (int d = 0; d < scope.dayCount(); d++) {
                cProject.uuid(scope.project);
                cHost.text(scope.hostname);
                cPrefix.text(scope.prefix);
                cDay.number(scope.day(d));
                long[] counts = scope.countsAt(d);
                for (int v = 0; v < values.length; v++) {
                    values[v].number(counts[v]);
                }
            }
        }
        int k = batch.sources.size();
        Column srcProject = new Column(k, 36);
        Column srcName = new Column(k, 16);
        Column srcAt = new Column(k, 13);
        for (Map.Entry<HitBatch.Source, Long> e : batch.sources.entrySet()) {
            srcProject.uuid(e.getKey().project());
            srcName.text(e.getKey().source());
            srcAt.number(e.getValue());
        }
        int h = batch.hostnames.size();
        Column hProject = new Column(h, 36);
        Column hSource = new Column(h, 16);
        Column hName = new Column(h, 20);
        Column hAt = new Column(h, 13);
        for (Map.Entry<HitBatch.SourceHost, Long> e : batch.hostnames.entrySet()) {
            hProject.uuid(e.getKey().project());
            hSource.text(e.getKey().source());
            hName.text(e.getKey().hostname());
            hAt.number(e.getValue());
        }
        int f = batch.notFound.size();
        Column nfProject = new Column(f, 36);
        Column nfDay = new Column(f, 5);
        Column nfHost = new Column(f, 20);
        Column nfPath = new Column(f, 30);
        Column nfBot = new Column(f, 12);
        Column nfCount = new Column(f, 3);
        for (Map.Entry<HitBatch.NotFound, long[]> e : batch.notFound.entrySet()) {
            nfProject.uuid(e.getKey().project());
            nfDay.number(e.getKey().day());
            nfHost.text(e.getKey().hostname());
            nfPath.text(e.getKey().path());
            nfBot.text(e.getKey().botName());
            nfCount.number(e.getValue()[0]);
        }
        return moved.bind(fresh.bind(db.sql(APPLY), "n"), "m")
                .bind("cProject", cProject.literal())
                .bind("cHost", cHost.literal())
                .bind("cPrefix", cPrefix.literal())
                .bind("cDay", cDay.literal())
                .bind("cTotal", values[0].literal())
                .bind("cBot", values[1].literal())
                .bind("cRef", values[2].literal())
                .bind("cSessions", values[3].literal())
                .bind("cBotSessions", values[4].literal())
                .bind("cRefSessions", values[5].literal())
                .bind("srcProject", srcProject.literal())
                .bind("srcName", srcName.literal())
                .bind("srcAt", srcAt.literal())
                .bind("hProject", hProject.literal())
                .bind("hSource", hSource.literal())
                .bind("hName", hName.literal())
                .bind("hAt", hAt.literal())
                .bind("nfProject", nfProject.literal())
                .bind("nfDay", nfDay.literal())
                .bind("nfHost", nfHost.literal())
                .bind("nfPath", nfPath.literal())
                .bind("nfBot", nfBot.literal())
                .bind("nfCount", nfCount.literal())
                .then();
    }

    /**
     * The four columns of a list of session rows (key; last day; last bot day and last referral day,
     * NULL for none), bound as {@code <prefix>Key}, {@code <prefix>Day}, {@code <prefix>Bot} and
     * {@code <prefix>Ref}: the batch's new sessions ({@code n}) and the ones it moves ({@code m}).
     */
    private record SessionColumns(Column key, Column day, Column bot, Column ref) {

        static SessionColumns of(List<Map.Entry<UUID, int[]>> sessions) {
            int size = sessions.size();
            SessionColumns columns = new SessionColumns(new Column(size, 36), new Column(size, 5), new Column(size, 5), new Column(size, 5));
            for (Map.Entry<UUID, int[]> e : sessions) {
                columns.key.uuid(e.getKey());
                columns.day.number(e.getValue()[0]);
                day(columns.bot, e.getValue()[1]);
                day(columns.ref, e.getValue()[2]);
            }
            return columns;
        }

        DatabaseClient.GenericExecuteSpec bind(DatabaseClient.GenericExecuteSpec spec, String prefix) {
            return spec.bind(prefix + "Key", key.literal())
                    .bind(prefix + "Day", day.literal())
                    .bind(prefix + "Bot", bot.literal())
                    .bind(prefix + "Ref", ref.literal());
        }

        /** A session's first day as a bot or referral session, or NULL when it has none ({@link HitBatch#NONE}). */
        private static void day(Column column, int day) {
            if (day == HitBatch.NONE) {
                column.none();
            } else {
                column.number(day);
            }
        }
    }
}
