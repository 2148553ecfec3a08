package dev.visibility.traffic.hits;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import dev.visibility.platform.events.TrafficHitObserved;

/**
 * One batch of hits folded into the rows it changes, so that the database sees each key once per
 * batch: event counts per (scope, day), the latest day per (scope, session) for any hit, bot hits and
 * referral hits, the latest accepted hit per source and per (source, hostname), and 404s per (day,
 * hostname, path, crawler). Days are UTC days, as epoch day numbers.
 *
 * <p>A batch makes each of its scopes once ({@link Scope}: the project, a hostname and path prefix)
 * and each (project, hostname, path) of its hits once (the scopes the path counts in, in order): a
 * hit then costs one map lookup for its scopes and one per scope for its session, and its counts
 * go straight into the scope's day rows (bench/TrafficBench.md, session 20: with a map entry and a
 * lookup per scope-day and per scope, the batch was half of the ingesting JVM's Java-code samples;
 * this layout takes a fifth less CPU, {@code HitFoldBench}).
 */
final class HitBatch {

    /** What a 404 aggregate keeps of a path at most (the rest is cut). */
    static final int MAX_NOT_FOUND_PATH = 512;

    static final int NONE = Integer.MIN_VALUE;

    private static final int SECONDS_PER_DAY = 86_400;

    /**
     * A scope of the batch: the project ({@link Scopes#PROJECT}, {@link Scopes#ROOT}) or a hostname (in
     * lower case) and path prefix of it, with its rows of the batch: one per day, with the total, bot
     * and referral events, then (after {@link #fold}) the moves of the sessions, bot sessions and
     * referral sessions histograms. Made once per batch, so that it is compared by identity.
     */
    static final class Scope {

        final UUID project;
        final String hostname;
        final String prefix;
        /** What its session keys are hashed from before the session ({@link SessionKeys}). */
        final byte[] keyPrefix;
        private final int hash;
        private int[] days = new int[1];
        private long[][] counts = new long[1][];
        private int dayCount;

        Scope(UUID project, String hostname, String prefix) {
            this.project = project;
            this.hostname = hostname;
            this.prefix = prefix;
            this.keyPrefix = SessionKeys.keyPrefix(project, hostname, prefix);
            this.hash = (project.hashCode() * 31 + hostname.hashCode()) * 31 + prefix.hashCode();
        }

        /** The scope's row of {@code day}, made on first use. */
        long[] counts(int day) {
            for (int d = 0; d < dayCount; d++) {
                if (days[d] == day) {
                    return counts[d];
                }
            }
            if (dayCount == days.length) {
                days = Arrays.copyOf(days, dayCount * 2);
                counts = Arrays.copyOf(counts, dayCount * 2);
            }
            days[dayCount] = day;
            return counts[dayCount++] = new long[6];
        }

        int dayCount() {
            return dayCount;
        }

        int day(int index) {
            return days[index];
        }

        long[] countsAt(int index) {
            return counts[index];
        }

        @Override
        public String toString() {
            return project + " " + hostname + " " + prefix;
        }
    }

    /** A session in one scope of the batch (the scope compared by identity: one object per scope a batch). */
    record ScopeSession(Scope scope, String session) {

        @Override
        public boolean equals(Object other) {
            return other instanceof ScopeSession o && scope == o.scope && session.equals(o.session);
        }

        @Override
        public int hashCode() {
            return scope.hash * 31 + session.hashCode();
        }
    }

    /** A (project, hostname as sent, path) of the batch's hits: the key of the scopes it counts in. */
    private record PathKey(UUID project, String hostname, String path) {

        @Override
        public boolean equals(Object other) {
            return other instanceof PathKey o && path.equals(o.path) && hostname.equals(o.hostname) && project.equals(o.project);
        }

        @Override
        public int hashCode() {
            return (project.hashCode() * 31 + hostname.hashCode()) * 31 + path.hashCode();
        }
    }

    private record ScopeName(UUID project, String hostname, String prefix) {
    }

    record Source(UUID project, String source) {
    }

    record SourceHost(UUID project, String source, String hostname) {
    }

    record NotFound(UUID project, int day, String hostname, String path, String botName) {
    }

    /** the batch's scopes, each once */
    final List<Scope> scopes = new ArrayList<>();
    /** last day, last bot day, last referral day; {@link #NONE} for none */
    final Map<ScopeSession, int[]> sessions = new HashMap<>();
    final Map<Source, Long> sources = new HashMap<>();
    final Map<SourceHost, Long> hostnames = new HashMap<>();
    final Map<NotFound, long[]> notFound = new HashMap<>();
    /** after {@link #fold}: session scopes without a row, and those whose row moves, by key with their last days */
    final List<Map.Entry<UUID, int[]>> newSessions = new ArrayList<>();
    final List<Map.Entry<UUID, int[]>> movedSessions = new ArrayList<>();

    private final Map<ScopeName, Scope> scopesByName = new HashMap<>();
    /** the scopes of a path: the project's, the hostname's ({@link Scopes#ROOT}), then each deeper prefix */
    private final Map<PathKey, Scope[]> pathScopes = new HashMap<>();

    static HitBatch of(List<TrafficHitObserved> hits, Instant now) {
        HitBatch batch = new HitBatch();
        long nowMillis = now.toEpochMilli();
        for (TrafficHitObserved hit : hits) {
            batch.add(hit, nowMillis);
        }
        return batch;
    }

    private void add(TrafficHitObserved hit, long nowMillis) {
        Scope[] scopes = pathScopes.computeIfAbsent(new PathKey(hit.projectId(), hit.hostname(), hit.path()), this::scopesOf);
        String hostname = scopes[1].hostname;
        int day = epochDay(hit.observedAt());
        boolean isBot = hit.isBot();
        boolean isReferral = hit.isReferral();
        int bot = isBot ? day : NONE;
        int referral = isReferral ? day : NONE;
        for (Scope scope : scopes) {
            long[] c = scope.counts(day);
            c[0]++;
            if (isBot) {
                c[1]++;
            }
            if (isReferral) {
                c[2]++;
            }
            session(new ScopeSession(scope, hit.sessionId()), day, bot, referral);
        }
        // accepted now: an observation from a drifting clock counts as made at acceptance at the latest
        long accepted = Math.min(hit.observedAt().toEpochMilli(), nowMillis);
        sources.merge(new Source(hit.projectId(), hit.source()), accepted, Math::max);
        hostnames.merge(new SourceHost(hit.projectId(), hit.source(), hostname), accepted, Math::max);
        if (hit.status() == 404) {
            String path = pathOnly(hit.path());
            notFound.computeIfAbsent(new NotFound(hit.projectId(), day, hostname, path,
                    hit.botName() == null ? "" : hit.botName()), k -> new long[1])[0]++;
        }
    }

    private Scope[] scopesOf(PathKey key) {
        String hostname = key.hostname().toLowerCase(Locale.ROOT);
        List<String> prefixes = Scopes.prefixes(key.path());
        Scope[] scopes = new Scope[prefixes.size() + 1];
        scopes[0] = scope(key.project(), Scopes.PROJECT, Scopes.ROOT);
        for (int i = 0; i < prefixes.size(); i++) {
            scopes[i + 1] = scope(key.project(), hostname, prefixes.get(i));
        }
        return scopes;
    }

    private Scope scope(UUID project, String hostname, String prefix) {
        return scopesByName.computeIfAbsent(new ScopeName(project, hostname, prefix), name -> {
            Scope scope = new Scope(project, hostname, prefix);
            scopes.add(scope);
            return scope;
        });
    }

    private void session(ScopeSession key, int day, int bot, int referral) {
        int[] d = sessions.get(key);
        if (d == null) {
            sessions.put(key, new int[] {day, bot, referral});
        } else {
            d[0] = Math.max(d[0], day);
            d[1] = Math.max(d[1], bot);
            d[2] = Math.max(d[2], referral);
        }
    }

    /**
     * Compares the batch's session scopes with their stored last days ({@code stored[i]} for
     * {@code keys.sorted[i]}; null for a new one): collects the new and the moved rows (in key order),
     * and adds to the histogram columns of the scopes' day rows what moves: a session whose last day
     * goes from D1 to D2 leaves D1's row (-1) and joins D2's (+1); a new one only joins (likewise for
     * the last bot and referral days). Answers how many session scopes are new or moved, and leaves
     * in {@code keys.settled} the last days each row has once the batch is applied.
     */
    long fold(SessionKeys keys, int[][] stored) {
        long moved = 0;
        for (int i = 0; i < keys.sorted.length; i++) {
            int[] batch = keys.days[i];
            int[] old = stored[i];
            int[] next = old == null ? batch
                    : new int[] {Math.max(old[0], batch[0]), Math.max(old[1], batch[1]), Math.max(old[2], batch[2])};
            keys.settled[i] = next;
            Scope scope = keys.scopes[i].scope();
            boolean changed = false;
            for (int c = 0; c < 3; c++) {
                int before = old == null ? NONE : old[c];
                if (before != next[c]) {
                    changed = true;
                    if (next[c] != NONE) {
                        scope.counts(next[c])[3 + c]++;
                    }
                    if (before != NONE) {
                        scope.counts(before)[3 + c]--;
                    }
                }
            }
            if (old == null) {
                newSessions.add(Map.entry(keys.sorted[i], next));
                moved++;
            } else if (changed) {
                movedSessions.add(Map.entry(keys.sorted[i], next));
                moved++;
            }
        }
        return moved;
    }

    /** The UTC day of an instant, as an epoch day number (the days of the batch's rows). */
    static int epochDay(Instant instant) {
        return (int) Math.floorDiv(instant.getEpochSecond(), SECONDS_PER_DAY);
    }

    static String pathOnly(String path) {
        int end = path.length();
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '?' || c == '#') {
                end = i;
                break;
            }
        }
        return path.substring(0, Math.min(end, MAX_NOT_FOUND_PATH));
    }
}
